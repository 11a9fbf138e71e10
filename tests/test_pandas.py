"""pandas takes Tensors as it takes ndarrays: a Series or DataFrame of a Tensor holds its
values; arithmetic between a Series and a Tensor records, in either order; a watched Tensor
that pandas converts inside a recording tape is reported at the user's line."""

import warnings

import numpy as np
import pytest

import tapegrad as tg

pd = pytest.importorskip("pandas")

A = np.array([0.5, 1.5, -2.0, 3.25])


def test_series_and_frames_of_a_tensor_hold_its_values():
    t = tg.tensor(A)
    pd.testing.assert_series_equal(pd.Series(t), pd.Series(A))
    pd.testing.assert_frame_equal(
        pd.DataFrame({"a": t, "b": 2 * t}), pd.DataFrame({"a": A, "b": 2 * A})
    )
    m = tg.tensor(np.arange(6.0).reshape(2, 3))
    pd.testing.assert_frame_equal(pd.DataFrame(m), pd.DataFrame(np.arange(6.0).reshape(2, 3)))
    # a 0-d Tensor is what a 0-d ndarray is to pandas: one object element
    assert pd.Series(t[0]).dtype == pd.Series(np.asarray(A[0])).dtype


def test_arithmetic_with_a_series_records_in_either_order():
    s = pd.Series([1.0, 2.0, 3.0, 4.0])
    frame = pd.DataFrame({"c": [0.5, 0.25, 2.0, 1.0]})
    x = tg.Variable(A)
    with tg.GradientTape() as tape:
        y = s * x + x * s + (frame["c"] - x) + s / (x * x + 1.0)
        loss = tg.numpy.sum(y)
    for result in (s * x, x * s, frame["c"] - x):
        assert isinstance(result, tg.Tensor) and type(result.numpy()) is np.ndarray
    expected = 2 * s.to_numpy() - 1.0 - s.to_numpy() * 2 * A / (A * A + 1.0) ** 2
    np.testing.assert_allclose(tape.gradient(loss, x).numpy(), expected, rtol=1e-12)


def test_a_watched_tensor_pandas_converts_is_reported_at_the_users_line():
    x = tg.Variable(A)
    with tg.GradientTape(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pd.Series(x * 2.0)
    (warning,) = [w for w in caught if "left the tape" in str(w.message)]
    assert warning.filename == __file__
    assert "pandas converted it" in str(warning.message)
