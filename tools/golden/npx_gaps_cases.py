"""The npx gap cases shared by tools/golden/gen_npx_gaps.py (run under MXNet 1.9.1) and
tests/test_np/test_npx_gaps.py (run under mxnet-py): key -> (function of mx.np arrays,
input arrays as NumPy, indices of the inputs to differentiate)."""
import numpy as onp


def cases(np, npx):
    rs = onp.random.RandomState(11)
    f32 = onp.float32
    x23 = onp.array([[1, -2, 3], [-0.5, 0.5, 2]], f32)
    img = rs.randint(0, 255, (4, 5, 3)).astype(onp.uint8)
    T, N, C, H = 3, 2, 4, 5
    n_lstm = 4 * H * (C + H) + 2 * 4 * H
    anchors = onp.array([[[0.1, 0.1, 0.4, 0.4], [0.5, 0.5, 0.9, 0.9], [0.2, 0.6, 0.5, 0.9]]], f32)
    return {
        "softmax_len": (lambda a, n: npx.softmax(a, n, use_length=True),
                        [x23, onp.array([2, 3], onp.int32)], [0]),
        "softmax_len_axis0_t": (lambda a, n: npx.softmax(a, length=n, axis=0, temperature=2.0,
                                                          use_length=True),
                                [x23, onp.array([1, 2, 1], onp.int32)], [0]),
        "softmax_len_3d": (lambda a, n: npx.softmax(a, n, axis=1, use_length=True),
                           [rs.randn(2, 4, 3).astype(f32),
                            onp.array([[1, 4, 2], [3, 0, 4]], onp.int64)], [0]),
        "log_softmax": (lambda a: npx.log_softmax(a, 0, 1.5), [x23], [0]),
        "arange_like": (lambda a: npx.arange_like(a), [x23], []),
        "arange_like_axis": (lambda a: npx.arange_like(a, start=2, step=0.5, repeat=2, axis=1),
                             [x23], []),
        "cast": (lambda a: npx.cast(a, "float16"), [x23], [0]),
        "cast_int": (lambda a: npx.cast(a, dtype="int32"), [x23], []),
        "erfinv": (lambda a: npx.erfinv(a), [onp.array([0.1, -0.5, 0.9], f32)], [0]),
        "gammaln": (lambda a: npx.gammaln(a), [onp.array([0.5, 3.0, 7.5], f32)], [0]),
        "gather_nd": (lambda a, i: npx.gather_nd(a, i),
                      [x23, onp.array([[0, 1, 1], [2, 0, 2]], onp.int32)], [0]),
        "slice_step": (lambda a: npx.slice(a, (None, 2), (None, 0), (1, -1)), [x23], [0]),
        "slice": (lambda a: npx.slice(a, begin=(0, 1), end=(2, 3)), [x23], [0]),
        "smooth_l1": (lambda a: npx.smooth_l1(a, scalar=2.0), [x23], [0]),
        "reshape_like": (lambda a, b: npx.reshape_like(a, b, lhs_begin=1, lhs_end=2, rhs_begin=0,
                                                       rhs_end=2),
                         [rs.randn(2, 6).astype(f32), onp.zeros((3, 2), f32)], [0]),
        "nonzero": (lambda a: npx.nonzero(a), [onp.array([[0, 1, 0], [2, 0, 3]], f32)], []),
        "shape_array": (lambda a: npx.shape_array(a), [onp.zeros((2, 0, 3), f32)], []),
        "deconvolution": (lambda a, w, b: npx.deconvolution(a, w, b, kernel=(2, 2), stride=(2, 1),
                                                            num_filter=3, no_bias=False),
                          [rs.randn(1, 2, 3, 3).astype(f32), rs.randn(2, 3, 2, 2).astype(f32),
                           rs.randn(3).astype(f32)], [0, 1, 2]),
        "deconvolution_nobias": (lambda a, w: npx.deconvolution(a, w, kernel=(3,), pad=(1,),
                                                                num_filter=2),
                                 [rs.randn(2, 2, 5).astype(f32), rs.randn(2, 2, 3).astype(f32)],
                                 [0, 1]),
        "roi_pooling": (lambda a, r: npx.roi_pooling(a, r, pooled_size=(2, 2), spatial_scale=0.5),
                        [rs.randn(2, 2, 6, 6).astype(f32),
                         onp.array([[0, 0, 0, 7, 7], [1, 2, 4, 11, 9]], f32)], [0]),
        "multibox_prior": (lambda a: npx.multibox_prior(a, sizes=(0.5, 0.25), ratios=(1, 2),
                                                        clip=True),
                           [onp.zeros((1, 3, 2, 3), f32)], []),
        "multibox_target": (lambda an, lb, cp: npx.multibox_target(an, lb, cp),
                            [anchors, onp.array([[[1, 0.1, 0.1, 0.45, 0.45],
                                                  [-1, -1, -1, -1, -1]]], f32),
                             rs.rand(1, 3, 3).astype(f32)], []),
        "multibox_detection": (lambda cp, lp, an: npx.multibox_detection(cp, lp, an,
                                                                         threshold=0.1),
                               [onp.array([[[0.1, 0.2, 0.7], [0.6, 0.3, 0.1],
                                            [0.3, 0.5, 0.2]]], f32).transpose(0, 2, 1).copy(),
                                (0.1 * rs.randn(1, 12)).astype(f32), anchors], []),
        "rnn_lstm": (lambda d, p, s, c: npx.rnn(d, p, s, c, state_size=H, num_layers=1,
                                                mode="lstm", state_outputs=True),
                     [rs.randn(T, N, C).astype(f32), (0.3 * rs.randn(n_lstm)).astype(f32),
                      rs.randn(1, N, H).astype(f32), rs.randn(1, N, H).astype(f32)],
                     [0, 1, 2, 3]),
        "rnn_gru": (lambda d, p, s: npx.rnn(d, p, s, state_size=H, num_layers=1, mode="gru"),
                    [rs.randn(T, N, C).astype(f32),
                     (0.3 * rs.randn(3 * H * (C + H) + 2 * 3 * H)).astype(f32),
                     rs.randn(1, N, H).astype(f32)], [0, 1, 2]),
        "image_to_tensor": (lambda a: npx.image.to_tensor(a), [img], []),
        "image_normalize": (lambda a: npx.image.normalize(a, mean=(0.5, 0.4, 0.3),
                                                          std=(0.2, 0.3, 0.4)),
                            [rs.rand(3, 4, 5).astype(f32)], [0]),
        "image_resize": (lambda a: npx.image.resize(a, size=(3, 2)), [img], []),
        "image_crop": (lambda a: npx.image.crop(a, 1, 2, 3, 2), [img], []),
        # even width: 1.9.1 leaves the middle column of an odd width unwritten (garbage)
        "image_flip_lr": (lambda a: npx.image.flip_left_right(a), [rs.rand(3, 6, 3).astype(f32)],
                          [0]),
        "image_flip_tb": (lambda a: npx.image.flip_top_bottom(a), [img], []),
        "image_adjust_lighting": (lambda a: npx.image.adjust_lighting(a, alpha=(0.1, -0.2, 0.3)),
                                  [(255 * rs.rand(4, 5, 3)).astype(f32)], []),
    }


# calls that must fail: key -> (function, inputs, exception class name in 1.9.1)
def error_cases(np, npx):
    f32 = onp.float32
    x23 = onp.array([[1, -2, 3], [-0.5, 0.5, 2]], f32)
    return {
        "softmax_float_length": (lambda a, n: npx.softmax(a, n, use_length=True),
                                 [x23, onp.array([2.0, 3.0], f32)]),
        "softmax_length_without_use": (lambda a, n: npx.softmax(a, n),
                                       [x23, onp.array([2, 3], onp.int32)]),
        "softmax_use_without_length": (lambda a: npx.softmax(a, use_length=True), [x23]),
        "deconvolution_bias_default": (
            lambda a, w, b: npx.deconvolution(a, w, b, kernel=(2, 2), num_filter=3),
            [onp.zeros((1, 2, 3, 3), f32), onp.zeros((2, 3, 2, 2), f32), onp.zeros(3, f32)]),
        "constraint_false": (lambda a: npx.constraint_check(a > 0, "need positive"),
                             [onp.array([1, 0], f32)]),
        "constraint_float": (lambda a: npx.constraint_check(a, "x"), [onp.array([1, 1], f32)]),
        "bernoulli_both": (lambda: npx.random.bernoulli(0.1, 0.2), []),
        "bernoulli_none": (lambda: npx.random.bernoulli(), []),
        "bernoulli_prob_gt1": (lambda: npx.random.bernoulli(1.5), []),
    }


# random samplers: key -> (function, inputs); their shapes and dtypes are recorded
def random_cases(np, npx):
    f32 = onp.float32
    return {
        "bernoulli_scalar": (lambda: npx.random.bernoulli(0.3, size=(2, 3)), []),
        "bernoulli_noshape": (lambda: npx.random.bernoulli(0.3), []),
        "bernoulli_logit_f64": (lambda: npx.random.bernoulli(logit=0.3, size=(4,),
                                                             dtype="float64"), []),
        "bernoulli_array": (lambda p: npx.random.bernoulli(p), [onp.array([[0.0, 1.0, 0.5]], f32)]),
        "bernoulli_array_size": (lambda p: npx.random.bernoulli(p, size=(2, 3)),
                                 [onp.array([0.0, 1.0, 0.5], f32)]),
        "normal_n": (lambda: npx.random.normal_n(0, 1, batch_shape=(2,)), []),
        "normal_n_int": (lambda: npx.random.normal_n(1.0, 2.0, batch_shape=3), []),
        "normal_n_none": (lambda: npx.random.normal_n(), []),
        "normal_n_array": (lambda m: npx.random.normal_n(m, 1, batch_shape=(2,)),
                           [onp.zeros(3, f32)]),
        "uniform_n": (lambda lo, hi: npx.random.uniform_n(lo, hi, batch_shape=(4,),
                                                          dtype="float64"),
                      [onp.zeros((2, 1), f32), onp.ones(3, f32)]),
        "uniform_n_scalar": (lambda: npx.random.uniform_n(2.0, 3.0, batch_shape=(5, 2)), []),
    }


def run(np, autograd, fn, inputs, diff, heads_of):
    """One value case under autograd: the inputs as np arrays (those listed in ``diff`` with
    gradients attached), the outputs, and where ``diff`` is not empty the backward of
    sum(output * head) over the float outputs, the heads being ``heads_of(outs)`` (NumPy
    arrays). Returns (inputs, outputs, heads)."""
    xs = [np.array(a, dtype=a.dtype) for a in inputs]
    for i in diff:
        xs[i].attach_grad()
    heads = []
    with autograd.record():
        outs = fn(*xs)
        outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
        if diff:
            heads = [np.array(h) for h in heads_of(outs)]
            total = sum((o.astype("float32") * h.astype("float32")).sum()
                        for o, h in zip(outs, heads) if o.dtype.kind == "f")
    if diff:
        total.backward()
    return xs, outs, heads
