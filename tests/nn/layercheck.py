"""Finite-difference check of a layer's gradient with respect to its own Variables."""

import numpy as np

import tapegrad as tg


def check_variable_gradients(f, variables, eps=1e-6, atol=1e-5, rtol=1e-4, seed=0):
    """Compare the tape's gradient of ``<u, f()>`` for each float64 Variable with central
    differences, moving one element at a time through ``assign`` (and putting it back)."""
    rng = np.random.default_rng(seed)
    with tg.GradientTape() as tape:
        out = f()
    cotangent = rng.standard_normal(out.shape)
    grads = tape.gradient(out, variables, output_gradients=tg.tensor(cotangent))
    for v, grad in zip(variables, grads):
        assert v.dtype == np.float64, "check float64 layers"
        original = v.numpy().copy()
        numeric = np.zeros(v.shape)
        for j in np.ndindex(*v.shape):
            sides = []
            for step in (eps, -eps):
                moved = original.copy()
                moved[j] += step
                v.assign(moved)
                sides.append(float(np.sum(f().numpy() * cotangent)))
            numeric[j] = (sides[0] - sides[1]) / (2 * eps)
        v.assign(original)
        got = np.zeros(v.shape) if grad is None else grad.numpy()
        np.testing.assert_allclose(got, numeric, atol=atol, rtol=rtol, err_msg=repr(v))
