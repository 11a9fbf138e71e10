"""str(tape), the memory report (tape.summary()) and the source line of each entry."""

import os
import re
import sys

import numpy as np

import tapegrad as tg
from tapegrad.core import sites
from tapegrad.debug.listing import format_bytes, saved_bytes
from tapegrad.ops import Primitive

HERE = os.path.basename(__file__)
LINE = re.compile(
    r"^(?P<out>%\d+) = (?P<op>\w+)\((?P<args>.*)\)\s{3,}(?P<shape>\([\d, ]*\)) (?P<dtype>\w+)"
    r"\s{3,}saved (?P<saved>[\d.]+ (?:B|KiB|MiB|GiB))\s{3,}(?P<where>\S+)$"
)


def next_line() -> int:
    """The line number of the caller's next line."""
    return sys._getframe(1).f_lineno + 1


def parse(tape):
    lines = str(tape).splitlines()
    matches = [LINE.match(line) for line in lines]
    assert all(matches), lines
    return [m.groupdict() for m in matches]


def test_one_line_an_entry_with_op_numbers_shape_dtype_saved_and_line():
    x = tg.Variable(np.ones((4, 3), np.float32), name="w")
    c = tg.tensor(np.ones((3, 2), np.float32))
    with tg.GradientTape() as tape:
        line = next_line()
        y = x @ c
        z = tg.exp(y) + 1.0
    rows = parse(tape)
    assert [r["op"] for r in rows] == ["matmul", "exp", "add"]
    assert rows[0]["out"] == "%2" and rows[0]["args"] == "%0<w>, %1"
    assert rows[1]["args"] == "%2" and rows[2]["args"] == "%3, 1.0"
    assert all(r["shape"] == "(4, 2)" and r["dtype"] == "float32" for r in rows)
    # matmul keeps x (48 B), c (24 B) and its output (32 B); exp then keeps only its output.
    assert [r["saved"] for r in rows] == ["104 B", "32 B", "32 B"]
    assert [r["where"] for r in rows] == [
        f"{HERE}:{line}",
        f"{HERE}:{line + 1}",
        f"{HERE}:{line + 1}",
    ]
    assert z.shape == (4, 2)


def test_empty_tape():
    with tg.GradientTape() as tape:
        pass
    assert str(tape) == "<empty GradientTape>"
    assert tape.summary().entries == 0 and tape.summary().saved_bytes == 0


def test_params_and_array_constants_are_shown_short():
    x = tg.tensor(np.arange(6.0).reshape(2, 3))
    with tg.GradientTape() as tape:
        tape.watch(x)
        tg.sum(x * np.ones(3), axis=0)
        x[np.arange(2) % 2 == 0]
    lines = str(tape).splitlines()
    assert "multiply(%0, array(3,) float64)" in lines[0]
    assert "sum(%1, axis=(0,), keepdims=False)" in lines[1]
    assert all(len(line) < 200 for line in lines)


def test_a_scalar_type_param_is_not_counted_as_saved_memory():
    x = tg.tensor([1.0, 2.0])
    with tg.GradientTape() as tape:
        tape.watch(x)
        tg.astype(x, np.float32)  # np.float32 has nbytes and shape, as descriptors
    assert "astype(%0, dtype=" in str(tape)
    assert tape.summary().saved_bytes == 16 + 8


def test_site_is_the_first_frame_outside_the_package():
    x = tg.tensor([1.0, 2.0])
    lines = []

    def users_helper(t):
        lines.append(next_line())
        return np.exp(t)  # through __array_ufunc__: several tapegrad frames deep

    with tg.GradientTape() as tape:
        tape.watch(x)
        users_helper(x)
    (entry,) = list(tape)
    assert entry.site == (__file__, lines[0])
    assert entry.where == f"{HERE}:{lines[0]}"


def test_every_way_of_calling_an_op_records_the_users_line():
    # The search for the user's frame starts a fixed number of frames above record;
    # each entry point must land on the line that called the op, not on its caller.
    double = Primitive("double", lambda xp, x: x * 2.0).defvjp(lambda g, ans, x: g * 2.0)
    scale = Primitive("scale", lambda xp, x, by: x * by).defvjp(lambda g, ans, x, by: g * by)
    layer = tg.nn.Linear(2, 2)
    calls = [
        lambda t: t * 3.0,
        lambda t: -t,
        lambda t: tg.tanh(t),
        lambda t: tg.multiply(t, t),
        lambda t: t.sum(),
        lambda t: tg.mean(t),
        lambda t: np.exp(t),
        lambda t: double(t),
        lambda t: scale(t, by=3.0),
        lambda t: t[0],
        lambda t: layer(t[None, :]),
    ]
    x = tg.tensor([1.0, 2.0])
    for call in calls:
        with tg.GradientTape(watch_accessed_variables=False) as tape:
            tape.watch(x)
            call(x)
        line = call.__code__.co_firstlineno
        assert [entry.site for entry in tape][-1] == (__file__, line), tape


def test_site_of_a_file_next_to_the_package_is_the_users():
    # A user's tapegrad_demo.py beside the package directory is not "inside" tapegrad.
    beside = sites._PACKAGE_DIR.rstrip(os.sep) + "_demo.py"
    namespace = {"tg": tg}
    exec(compile("def f(x):\n    return x * 2.0\n", beside, "exec"), namespace)
    x = tg.tensor(1.0)
    with tg.GradientTape() as tape:
        tape.watch(x)
        namespace["f"](x)
    assert list(tape)[0].site == (beside, 2)


def test_site_is_not_formatted_while_recording():
    # Recording keeps the raw (filename, line); formatting waits for entry.where.
    x = tg.tensor(1.0)
    with tg.GradientTape() as tape:
        tape.watch(x)
        x + 1.0
    site = list(tape)[0].site
    assert type(site) is tuple and site[0] == __file__ and isinstance(site[1], int)


def test_saved_bytes_count_each_buffer_once_and_views_as_their_base():
    x = tg.tensor(np.ones((8, 4)))  # 256 B
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = x * 2.0  # new 256 B, and x's 256 B
        v = y[2:4]  # a view of y: nothing new
        r = tg.reshape(v, (8,))  # a view of the view: nothing new
        r * r  # new 64 B
    assert saved_bytes(list(tape)) == [512, 0, 0, 64]
    report = tape.summary()
    assert report.saved_bytes == 576
    assert sum(op.saved_bytes for op in report.ops.values()) == report.saved_bytes


def test_summary_counts_and_bytes_per_op():
    x = tg.tensor(np.ones((16, 16), np.float32))  # 1 KiB
    with tg.GradientTape() as tape:
        tape.watch(x)
        h = x @ x  # x and a new 1 KiB
        h = h @ x  # a new 1 KiB
        s = tg.sum(tg.tanh(h))  # 1 KiB + 4 B
    report = tape.summary()
    assert report.entries == len(tape) == 4
    assert list(report.ops) == ["matmul", "tanh", "sum"]  # largest first
    assert report.ops["matmul"].entries == 2
    assert report.ops["matmul"].saved_bytes == 3 * 1024
    assert report.ops["tanh"].saved_bytes == 1024
    assert report.ops["sum"].saved_bytes == 4
    assert report.saved_bytes == 4 * 1024 + 4
    assert report.sources == 1
    text = str(report).splitlines()
    assert text[0].split() == ["op", "entries", "saved"]
    assert text[1].split() == ["matmul", "2", "3.0", "KiB"]
    assert text[-2].split() == ["total", "4", "4.0", "KiB"]
    assert text[-1] == "watched sources: 1"
    assert repr(report) == str(report)
    assert s.shape == ()


def test_format_bytes():
    assert format_bytes(0) == "0 B"
    assert format_bytes(1023) == "1023 B"
    assert format_bytes(1536) == "1.5 KiB"
    assert format_bytes(1024**2) == "1.0 MiB"
    assert format_bytes(3 * 1024**3) == "3.0 GiB"
    assert format_bytes(5 * 1024**4) == "5120.0 GiB"


def test_listing_numbers_match_a_256_by_512_matmul():
    # The issue's own example line: a float32 (256, 512) result keeping 1.0 MiB... and more.
    a = tg.tensor(np.zeros((256, 256), np.float32))
    b = tg.tensor(np.zeros((256, 512), np.float32))
    with tg.GradientTape() as tape:
        tape.watch([a, b])
        a @ b
    (row,) = parse(tape)
    assert row["shape"] == "(256, 512)" and row["dtype"] == "float32"
    # a 256 KiB + b 512 KiB; not the output, which matmul's rules do not read
    # (Primitive.saves): the tape keeps only its shape and dtype.
    assert row["saved"] == "768.0 KiB"


def test_strict_backend_arrays_are_counted(backend):
    x = backend.tensor(np.ones((2, 3)))
    with tg.GradientTape() as tape:
        tape.watch(x)
        x * 2.0
    assert tape.summary().saved_bytes == 96
    assert "(2, 3) float64" in str(tape)
