"""The smallest gradient: z = x * y at x = 2, y = 3 gives dz/dx = 3 and dz/dy = 2.

Run: python examples/first_gradient.py
"""

import tapegrad as tg

x = tg.tensor(2.0)
y = tg.tensor(3.0)

with tg.GradientTape() as tape:
    tape.watch([x, y])
    z = x * y

print("the tape (a Wengert list):")
print(tape)
dz_dx, dz_dy = tape.gradient(z, [x, y])
print(f"z = {z.item()}, dz/dx = {dz_dx.item()}, dz/dy = {dz_dy.item()}")
