"""A first MXNet 1.x program: imperative NDArray code, recorded and differentiated.

Fits y = 2x - 1 with plain gradient descent using mx.nd and mx.autograd.
"""
import numpy as np

import mxnet as mx

mx.random.seed(42)
x = mx.nd.array([[1, 2], [3, 4]])
x.attach_grad()
with mx.autograd.record():
    y = (x * x + mx.nd.exp(x)).sum()
y.backward()
print("d/dx sum(x*x + exp(x)) =", x.grad.asnumpy().tolist())

rng = np.random.RandomState(0)
data = mx.nd.array(rng.uniform(-1, 1, size=(256, 1)))
label = 2 * data - 1
w = mx.nd.zeros((1, 1))
b = mx.nd.zeros((1,))
for p in (w, b):
    p.attach_grad()
for _step in range(200):
    with mx.autograd.record():
        pred = mx.nd.dot(data, w) + b
        loss = ((pred - label) ** 2).mean()
    loss.backward()
    for p in (w, b):
        p -= 0.1 * p.grad
print(f"w={w.asscalar():.4f} b={b.asscalar():.4f} loss={loss.asscalar():.6f}")
