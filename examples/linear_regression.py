"""Fit y = 3x + 2 by gradient descent, one GradientTape per step.

Run: python examples/linear_regression.py
"""

import numpy as np

import tapegrad as tg

rng = np.random.default_rng(0)
x = tg.tensor(rng.uniform(-1, 1, size=100))
y = 3 * x + 2 + tg.tensor(rng.normal(0, 0.1, size=100))

w = tg.Variable(0.0, name="w")
b = tg.Variable(0.0, name="b")
learning_rate = 0.1

for step in range(1, 1001):
    with tg.GradientTape() as tape:
        prediction = w * x + b
        loss = tg.mean((prediction - y) ** 2)
    dw, db = tape.gradient(loss, [w, b])
    w.assign_sub(learning_rate * dw)
    b.assign_sub(learning_rate * db)
    if step % 100 == 0:
        print(f"step {step:4d}  loss {loss.item():.5f}  w {w.item():.4f}  b {b.item():.4f}")

print(f"fitted y = {w.item():.3f} x + {b.item():.3f}   (true: y = 3x + 2)")
