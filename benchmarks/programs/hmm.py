"""A hidden Markov model's forward algorithm in log space, differentiated in the
transition, emission and initial logits: ``T`` steps of a logsumexp recursion over a
batch of observation sequences (autograd's ``hmm_em.py`` example, by gradients)."""

from __future__ import annotations

from typing import Any

import numpy

STATES, SYMBOLS, BATCH = 16, 12, 8
STEPS = 100
TINY = 6


def description(steps: int) -> str:
    return f"HMM forward: {STATES} states, {BATCH} sequences x {steps} steps, logsumexp"


def inputs(steps: int = STEPS, seed: int = 0) -> tuple[Any, dict[str, Any]]:
    """Logits of the transition (K, K), emission (K, V) and initial (K,) distributions,
    and integer observations (BATCH, steps)."""
    rng = numpy.random.default_rng(seed)
    params = [
        rng.standard_normal((STATES, STATES)),
        rng.standard_normal((STATES, SYMBOLS)),
        rng.standard_normal(STATES),
    ]
    observations = rng.integers(0, SYMBOLS, (BATCH, steps))
    return params, {"observations": observations}


def log_normalize(np: Any, sp: Any, logits: Any) -> Any:
    """Rows of ``logits`` as log probabilities."""
    return logits - sp.special.logsumexp(logits, axis=-1, keepdims=True)


def loss(np: Any, sp: Any, params: Any, data: dict[str, Any]) -> Any:
    """Minus the log likelihood of every sequence, summed, by the forward recursion
    ``log a_t(j) = logsumexp_i(log a_{t-1}(i) + log A(i, j)) + log B(j, o_t)``."""
    transition_logits, emission_logits, initial_logits = params
    observations = data["observations"]
    log_A = log_normalize(np, sp, transition_logits)
    log_B = log_normalize(np, sp, emission_logits).T  # (V, K): a row per symbol
    log_alpha = log_normalize(np, sp, initial_logits)[None, :] + log_B[observations[:, 0]]
    for t in range(1, observations.shape[1]):
        log_alpha = (
            sp.special.logsumexp(log_alpha[:, :, None] + log_A[None, :, :], axis=1)
            + log_B[observations[:, t]]
        )
    return -np.sum(sp.special.logsumexp(log_alpha, axis=1))
