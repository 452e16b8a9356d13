"""Print the MXNet 1.9.1 values that tests/test_compat_sweep_image_bits.py holds as literals.

Run with the reference interpreter (never with this repository's mxnet)::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \\
        /work/main/tools/golden/gen_image_bits.py

Each line is ``name: hex`` (the output's raw bytes, little-endian) or ``name: [ints]``; the
inputs come from ``ramp`` below, which the test file repeats.
"""
import numpy as np

import mxnet as mx


def ramp(shape, dtype, mul=37, mod=101, div=7.0):
    n = int(np.prod(shape))
    v = (np.arange(n) * mul + 11) % mod
    return (v / div).astype(dtype).reshape(shape) if div else v.astype(dtype).reshape(shape)


def show(name, arr):
    arr = np.ascontiguousarray(arr)
    if arr.dtype.kind in "iu":
        print(f"{name}: {arr.ravel().tolist()}")
    else:
        print(f"{name}: {arr.tobytes().hex()}")


def main():
    nd = mx.nd
    # float32 Lanczos, one and three channels
    a = ramp((9, 7, 1), np.float32)
    show("lanczos_c1_5x4", mx.image.imresize(nd.array(a), 5, 4, 4).asnumpy())
    show("lanczos_c1_11x6", mx.image.imresize(nd.array(a), 11, 6, 4).asnumpy())
    b = ramp((5, 6, 3), np.float32, 53, 97, 3.0)
    show("lanczos_c3_4x3", mx.image.imresize(nd.array(b), 4, 3, 4).asnumpy())
    show("lanczos_op_c3_7x2", nd.image.resize(nd.array(b), size=(7, 2), interp=4).asnumpy())
    # whole-factor area shrinks with more than four taps per output
    c = ramp((12, 9, 1), np.float32, 29, 103, 9.0)
    show("area_f32_3x3taps", mx.image.imresize(nd.array(c), 3, 4, 3).asnumpy())
    show("area_f64_3x3taps", mx.image.imresize(nd.array(c, dtype="float64"), 3, 4, 3).asnumpy())
    show("area_f32_9x2taps", mx.image.imresize(nd.array(c), 1, 6, 3).asnumpy())
    # halving: the SIMD kernel for one and four channels, a scalar tail
    d = ramp((4, 10, 1), np.float32, 41, 89, 11.0)
    show("half_c1_tail", mx.image.imresize(nd.array(d), 5, 2, 1).asnumpy())
    e = ramp((4, 4, 4), np.float32, 41, 89, 11.0)
    show("half_c4", mx.image.imresize(nd.array(e), 2, 2, 3).asnumpy())
    # float64 fractional area shrink
    f = ramp((7, 9, 1), np.float64, 31, 107, 13.0)
    show("area_f64_frac", mx.image.imresize(nd.array(f, dtype="float64"), 4, 3, 3).asnumpy())
    # PCA lighting
    g = ramp((2, 3, 3), np.float32, 43, 251, 1.7)
    show("lighting", nd.image.adjust_lighting(nd.array(g), alpha=(0.1, -0.05, 0.02)).asnumpy())
    # float16 contrast and saturation
    h = ramp((3, 4, 3), np.float16, 47, 211, 3.3)
    show("contrast_f16", nd.image.random_contrast(nd.array(h, dtype="float16"), 0.7, 0.7).asnumpy())
    show("saturation_f16",
         nd.image.random_saturation(nd.array(h, dtype="float16"), 0.7, 0.7).asnumpy())
    # integer images
    i8 = ramp((5, 6, 2), np.int8, 13, 120, 0)
    for interp in (1, 2, 3, 4):
        show(f"int8_{interp}", mx.image.imresize(nd.array(i8, dtype="int8"), 4, 7, interp).asnumpy())
    i32 = ramp((3, 4, 1), np.int32, 13, 1000, 0) - 300
    show("int32_nearest_op", nd.image.resize(nd.array(i32, dtype="int32"), size=(6, 5),
                                             interp=0).asnumpy())


if __name__ == "__main__":
    main()
