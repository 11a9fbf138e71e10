"""Names people bring from PyTorch, JAX, TensorFlow and NumPy (tapegrad/peers): every row of
every table, name by name, and the keyword spellings the peers use (size=, learning_rate=,
experimental_use_pfor=, @tg.no_grad without parentheses)."""

import re
from pathlib import Path

import numpy as np
import pytest

import tapegrad as tg
import tapegrad.testing
from tapegrad import peers

DOC = (Path(__file__).resolve().parents[1] / "docs" / "coming-from.md").read_text()
ROWS = [(table, row) for table in peers.TABLES for row in table.names]
IDS = [f"{table.anchor}:{row.where}.{row.name}" for table, row in ROWS]


def anchors(text):
    """The heading ids the site makes (Python-Markdown's toc slugs), as tests/test_docs.py."""
    headings = re.findall(r"^#+ (.+)$", re.sub(r"^```.*?^```", "", text, flags=re.M | re.S), re.M)
    slugs = (re.sub(r"[^\w\s-]", "", h).strip().lower() for h in headings)
    return {re.sub(r"[-\s]+", "-", slug) for slug in slugs}


def resolve(path):
    value = tg
    for part in path.split(".")[1:]:
        value = getattr(value, part)
    return value


def place(where):
    """An object on which ``where``'s names are looked up."""
    w = tg.Variable([1.0])
    return {
        "tg": tg,
        "tg.nn": tg.nn,
        "tg.optim": tg.optim,
        "tg.random": tg.random,
        "Tensor": tg.tensor([1.0]),
        "Module": tg.nn.Linear(2, 1),
        "Optimizer": tg.optim.SGD([w], lr=0.1),
    }[where]


def test_each_name_is_in_one_row_only():
    keys = [(row.where, row.name) for _, row in ROWS]
    assert len(keys) == len(set(keys))


def test_jaxs_transforms_are_tapegrads_own():
    jax = {row.name: row for table, row in ROWS if table.peer == "JAX"}
    for name in ("vmap", "jacfwd", "jacrev", "linearize", "jvp", "hessian"):
        assert jax[name].same and jax[name].equivalent == f"tg.{name}"


@pytest.mark.parametrize(("table", "row"), ROWS, ids=IDS)
def test_each_row(table, row):
    holder = place(row.where)
    if row.same:
        assert row.name in dir(holder) or row.name in vars(type(holder)), row
        assert getattr(holder, row.name) is resolve(row.equivalent)
    elif row.alias:
        assert getattr(holder, row.name) is resolve(row.equivalent)
        assert row.name not in vars(holder)  # bound by the table, not by hand
    else:
        with pytest.raises(AttributeError) as info:
            getattr(holder, row.name)
        text = str(info.value)
        assert row.equivalent in text and table.docs in text and f"{table.peer}'s" in text
        assert row.name not in dir(holder) or row.where not in ("tg", "tg.nn", "tg.optim")
    assert table.anchor in anchors(DOC)


@pytest.mark.parametrize(("table", "row"), ROWS, ids=IDS)
def test_each_row_is_in_the_docs(table, row):
    section = DOC.split(f"\n### {table.peer}\n", 1)[1].split("\n##", 1)[0]
    prefix = {"tg": "", "Tensor": "Tensor.", "Module": "Module.", "Optimizer": "Optimizer."}
    shown = prefix.get(row.where, row.where[3:] + ".") + row.name
    line = next((x for x in section.splitlines() if x.startswith(f"| `{shown}` |")), None)
    assert line is not None and f"`{row.equivalent}`" in line, row


def test_numpy_aliases_give_numpys_values():
    x = np.array([-0.5, 0.25, 0.75])
    for name in ("absolute", "acos", "asin", "atan", "acosh", "asinh", "atanh", "around"):
        value = np.abs(x) + 1.0 if name == "acosh" else x
        np.testing.assert_allclose(getattr(tg, name)(value).numpy(), getattr(np, name)(value))
    np.testing.assert_allclose(tg.atan2(x, x[::-1]).numpy(), np.atan2(x, x[::-1]))
    np.testing.assert_allclose(tg.pow(x, 2.0).numpy(), np.pow(x, 2.0))
    np.testing.assert_allclose(tg.true_divide(x, 3.0).numpy(), np.true_divide(x, 3.0))
    np.testing.assert_allclose(tg.amax(x).numpy(), np.amax(x))
    np.testing.assert_allclose(tg.amin(x).numpy(), np.amin(x))
    np.testing.assert_allclose(tg.concat([x, x]).numpy(), np.concat([x, x]))


def test_numpy_aliases_are_differentiable():
    tapegrad.testing.gradcheck(lambda x: tg.absolute(x) * tg.atan2(x, 2.0), [np.array([0.3, -0.7])])


def test_other_numpy_names_point_at_tapegrad_numpy():
    for name in ("histogram", "bincount", "isin", "meshgrid_not_a_name"):
        with pytest.raises(AttributeError) as info:
            getattr(tg, name)
        text = str(info.value)
        assert text.startswith(f"module 'tapegrad' has no attribute {name!r}")
        assert ("tapegrad.numpy." + name in text) == hasattr(tg.numpy, name)


def test_plain_misses_keep_pythons_message():
    for holder in (tg.tensor([1.0]), tg.nn.Linear(2, 1)):
        with pytest.raises(AttributeError, match=r"^'\w+' object has no attribute 'nope'$"):
            holder.nope  # noqa: B018
        assert not hasattr(holder, "__array_interface__")
    assert not hasattr(tg.tensor([1.0]), "backward")
    with pytest.raises(AttributeError, match="^module 'tapegrad.nn' has no attribute 'nope'$"):
        tg.nn.nope  # noqa: B018


def test_a_module_subclass_may_set_a_peers_name():
    class Model(tg.nn.Module):
        def __init__(self):
            self.parameters = tg.Variable(1.0)

    assert Model().parameters.item() == 1.0


def test_the_names_section_of_coming_from_runs(capsys):
    section = DOC.split("\n## Names from PyTorch", 1)[1]
    block = re.search(r'=== "tapegrad"\n\n    ```python\n(.*?)\n    ```', section, re.S)
    exec("\n".join(line[4:] for line in block.group(1).splitlines()), {})
    assert "trainable_variables" in capsys.readouterr().out


# --- the keyword spellings -----------------------------------------------------------------
def test_no_grad_with_and_without_parentheses():
    w = tg.Variable(3.0)

    @tg.no_grad
    def bare(v):
        return v * 10.0

    @tg.no_grad()
    def called(v):
        return v * 10.0

    assert bare.__name__ == "bare"
    with tg.GradientTape() as tape:
        with tg.no_grad():
            z = w * 5.0
        y = w * w + bare(w) + called(w) + z
    assert len(tape) == 4 and tape.gradient(y, w).item() == 6.0
    with pytest.raises(TypeError, match="no_grad"):
        tg.no_grad(3)


@pytest.mark.parametrize("kind", ["normal", "uniform"])
def test_random_takes_size_as_shape(kind):
    tg.random.seed(5)
    by_shape = getattr(tg.random, kind)((2, 3)).numpy()
    tg.random.seed(5)
    by_size = getattr(tg.random, kind)(size=(2, 3)).numpy()
    np.testing.assert_array_equal(by_shape, by_size)
    g = tg.random.Generator(1)
    assert getattr(g, kind)(size=4).shape == (4,)
    with pytest.raises(TypeError, match="size is NumPy's name for shape"):
        getattr(tg.random, kind)((2,), size=(2,))
    with pytest.raises(TypeError, match="missing the shape"):
        getattr(tg.random, kind)()


def test_integers_takes_size():
    a = tg.random.Generator(2).integers(0, 10, size=(3,))
    b = tg.random.Generator(2).integers(0, 10, (3,))
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert tg.random.Generator(2).integers(5).shape == ()
    with pytest.raises(TypeError, match="integers"):
        tg.random.Generator(2).integers(0, 10, (3,), size=(3,))


def test_manual_seed_is_random_seed():
    tg.manual_seed(3)
    a = tg.random.normal(3).numpy()
    tg.random.seed(3)
    np.testing.assert_array_equal(a, tg.random.normal(3).numpy())


OPTIMIZERS = [tg.optim.SGD, tg.optim.Adam, tg.optim.AdamW, tg.optim.RMSprop, tg.optim.Adagrad]


@pytest.mark.parametrize("optimizer", OPTIMIZERS, ids=lambda o: o.__name__)
def test_every_optimizer_takes_learning_rate(optimizer):
    steps = []
    for keyword in ("lr", "learning_rate"):
        w = tg.Variable([1.0, -2.0])
        opt = optimizer([w], **{keyword: 0.05})
        for _ in range(3):
            opt.apply_gradients([tg.tensor([0.5, 1.5])])
        steps.append(w.numpy())
        assert opt.lr == 0.05
    np.testing.assert_array_equal(steps[0], steps[1])
    with pytest.raises(TypeError, match=f"{optimizer.__name__}: got lr=0.1 and learning_rate"):
        optimizer([tg.Variable([1.0])], lr=0.1, learning_rate=0.2)


def test_defaults_and_sgds_required_rate():
    assert tg.optim.Adam([tg.Variable([1.0])]).lr == 1e-3
    assert tg.optim.RMSprop([tg.Variable([1.0])]).lr == 1e-2
    with pytest.raises(TypeError, match="SGD: missing the learning rate"):
        tg.optim.SGD([tg.Variable([1.0])])


@pytest.mark.parametrize("use_pfor", [True, False])
def test_jacobian_accepts_experimental_use_pfor(use_pfor):
    x = tg.tensor([1.0, 2.0, 3.0])
    results = []
    for flag in (None, use_pfor):
        with tg.GradientTape() as tape:
            tape.watch(x)
            y = tg.sin(x) * x[::-1]
        kwargs = {} if flag is None else {"experimental_use_pfor": flag}
        results.append(tape.jacobian(y, x, **kwargs).numpy())
    np.testing.assert_array_equal(results[0], results[1])
    expected = (
        np.diag(np.cos(x.numpy()) * x.numpy()[::-1]) + np.sin(x.numpy())[:, None] * np.eye(3)[::-1]
    )
    np.testing.assert_allclose(results[1], expected)
