"""Bit-exact image resampling and colour kernels against MXNet 1.9.1 (OpenCV 3.4.2 inside).

Covers what earlier sweeps (tests/test_image.py, tests/test_compat_sweep_vision.py) leave out:
float Lanczos weights, float area shrinks (whole-factor sums of more than four taps, the SIMD
halving kernel, float64 fractional area), PCA lighting, float16 contrast / saturation, and
integer images. ``GOLDEN`` holds 1.9.1's outputs (raw little-endian bytes as hex, or ints),
printed by tools/golden/gen_image_bits.py from the ``ramp`` inputs below.
"""
import base64
import zlib

import numpy as np
import pytest

import mxnet as mx

nd = mx.nd


def ramp(shape, dtype, mul=37, mod=101, div=7.0):
    n = int(np.prod(shape))
    v = (np.arange(n) * mul + 11) % mod
    return (v / div).astype(dtype).reshape(shape) if div else v.astype(dtype).reshape(shape)


GOLDEN = {
    "lanczos_c1_5x4": (
        "fe8bd840ab54514099881841cef0a04006c22b410d781741ff4ba24024c64141f46bb940778ac33ff02f3f41"
        "0aa0f74051aaa83fbc8a1b4157f874405a7b74407b962b41544b79400b6603418e01db40"),
    "lanczos_c1_11x6": (
        "2c5c8540ad736140b29da840df4415410f09164152cfad403b9f844019ef0941d3e04c4127221f410d33b340"
        "00877b40e25e9a405874054156684541b8dd19411bd8b54016520a41c6e1e540dc746e3f5e378940b1d92641"
        "62153641931a01413ecd47406632164007840f41dd0f594103440241a24c9e4035ecfe40e22bb340a4b1ab3f"
        "8a2942410829f540298aa840b0ef0a419f0cbf40dc1b0dbe3ca52a40b90c13415acd21419062b6402c62f93f"
        "6576474060ad0741b6753b41e36fd6402cad4f40bedef74078f85d41bff245410a22c840bb95d240565d2141"
        "3f3ccd4020c51c41078a3b4154190441d703f04089e7ff4031776240d33a3140f9890041f6d02141bc361341"),
    "lanczos_c3_4x3": (
        "01eb724155fa7041919403411e838341ccc1ba413a94a141eb79524177ff1f4140c08041b62d1c41e3aca541"
        "e26d7d41432dc1419e747841432dd941a0a5343f8eddce412b2886407a32ab41fcdc4b414acbd3419b4cce41"
        "0c33a94198406140ed7d3c4120aad2403b3e5b41cbbeb54132bc4b41a3facd414dc5df40d80cb841862c1c41"
        "401d8541d835174156bdb541"),
    "lanczos_op_c3_7x2": (
        "5b9bc941b7d995417641fabfc461b8414ae51840c649a641219e3c41b3548c411be18a412c9d7341467ed841"
        "8ec588410e1ac341e6f28b40b01adb4184b061411f3d574058059041678a0940a255c941faa3244162be9e41"
        "a4ea2e403bc5a741a88cc140cf1ea241af8c0b4126d2b541fa309a410985ce410446eb41b7f7c940293a0242"
        "a2ace44029315641e68f1b414662e64029699e414c8b3141feacc2418f001641d7e60142"),
    "area_f32_3x3taps": (
        "2903af4098d09e40034fb740ffffbf406fcdaf40da4bc840d7fcd04045cac040b7e68740b048b9402016a940"
        "8c94c140"),
    "area_f64_3x3taps": (
        "c1d32d2765e01540b497d0f812da134046cac067e0e91640721cc70000001840d7fc30d7adf9154013dacb43"
        "7b09194078bab5df9a1f1a406b7e58b048191840c1d3adedd6fc10406fcd0f26162917409b1f16f9c3221540"
        "2c52066391321840"),
    "area_f32_9x2taps": (
        "721cb74082a7bb4014daab402465b04034f0b440437bb940"),
    "half_c1_tail": (
        "bae852408c2e2a405e74814074d1ad405d7499402ebaa040185d8c4000007040d2454740a38b1e40"),
    "half_c4": (
        "2fba7840bae8b24000005040a38b9e40d2455740bae84240000098408c2e1a40165d744000006040e9a24b40"
        "d24537408c2eaa40a38b3e4074d19540e9a28b40"),
    "area_f64_frac": (
        "aa877aa06ff906408ed9984d422414404329941804411040fba55fc28bbb0840c8711c86a887124081c11716"
        "f65f0f4082022819c8801040dfde6d3aeee2124092100905a10f0a408ecff8dacbbc0c4087611828e5511240"
        "3fdee3e04ddd0c40"),
    "lighting": (
        "303e4a403435e44155fe5742b6159e4210d1d04277e10143dbe2e84013930242ce766842f251a6424e0dd942"
        "95ff0543505336418b0b134247ef78422e8eae428a49e142b31d0a43"),
    "contrast_f16": (
        "534aa84d1350525191526f4ced4eb650f5516e4ab54d1a50595197527d4cfb4ebd50fb51894ac34d21505f51"
        "9e528a4c084fc3500252a44ad04d27506651a552984c164fca500952"),
    "saturation_f16": (
        "d842b24ad74d14505351ca47ce4c4c4fe5504a43cf4ae54d1b5059510148dc4c5a4fec50bc43ec4af44d2150"
        "60511e48ea4c684ff3501644074b024e295068513a48f94c774ffa50"),
    "int8_1": [
        17, 30, 56, 69, 95, 78, 44, 27, 38, 51, 77, 90, 47, 47, 48, 48, 64, 68, 77, 81, 22, 35, 61,
        74, 90, 73, 39, 22, 48, 61, 87, 100, 94, 34, 43, 47, 73, 86, 48, 61, 72, 34, 60, 73, 86, 60,
        35, 48, 41, 54, 80, 93, 89, 12, 38, 51
    ],
    "int8_3": [
        20, 33, 54, 67, 98, 71, 52, 25, 41, 54, 76, 89, 47, 44, 50, 47, 63, 68, 81, 86, 21, 34, 55,
        68, 92, 65, 46, 19, 50, 63, 84, 97, 88, 29, 43, 48, 78, 91, 49, 62, 70, 35, 57, 70, 84, 65,
        39, 52, 44, 57, 78, 91, 82, 15, 36, 49
    ],
    "int32_nearest_op": [
        -289, -289, -276, -263, -263, -250, -289, -289, -276, -263, -263, -250, -237, -237, -224,
        -211, -211, -198, -237, -237, -224, -211, -211, -198, -185, -185, -172, -159, -159, -146
    ],
}


def expect(name, like):
    """1.9.1's output ``name`` with ``like``'s dtype and shape."""
    v = GOLDEN[name]
    if isinstance(v, list):
        return np.array(v, like.dtype).reshape(like.shape)
    return np.frombuffer(bytes.fromhex(v), like.dtype).reshape(like.shape)


def check(name, out):
    out = out.asnumpy()
    ref = expect(name, out)
    diff = out.view(f"u{out.dtype.itemsize}") != ref.view(f"u{ref.dtype.itemsize}")
    assert not diff.any(), f"{name}: {int(diff.sum())} of {diff.size} values differ"


# -- float32 Lanczos: weights from float32 ``f + 3 - i`` ------------------------------------
def test_lanczos_float32_one_channel():
    a = nd.array(ramp((9, 7, 1), np.float32))
    check("lanczos_c1_5x4", mx.image.imresize(a, 5, 4, 4))
    check("lanczos_c1_11x6", mx.image.imresize(a, 11, 6, 4))


def test_lanczos_float32_three_channels_and_operator():
    b = nd.array(ramp((5, 6, 3), np.float32, 53, 97, 3.0))
    check("lanczos_c3_4x3", mx.image.imresize(b, 4, 3, 4))
    check("lanczos_op_c3_7x2", nd.image.resize(b, size=(7, 2), interp=4))


# -- area shrinks ---------------------------------------------------------------------------
def test_area_whole_factor_sums_in_groups_of_four():
    c = ramp((12, 9, 1), np.float32, 29, 103, 9.0)
    check("area_f32_3x3taps", mx.image.imresize(nd.array(c), 3, 4, 3))
    check("area_f32_9x2taps", mx.image.imresize(nd.array(c), 1, 6, 3))
    # float64 sums in float64 but scales by a float32 1/9
    check("area_f64_3x3taps", mx.image.imresize(nd.array(c, dtype="float64"), 3, 4, 3))


def test_halving_simd_kernel_one_and_four_channels():
    d = nd.array(ramp((4, 10, 1), np.float32, 41, 89, 11.0))
    check("half_c1_tail", mx.image.imresize(d, 5, 2, 1))    # bilinear halving is area
    e = nd.array(ramp((4, 4, 4), np.float32, 41, 89, 11.0))
    check("half_c4", mx.image.imresize(e, 2, 2, 3))


def test_float64_fractional_area_accumulates_in_float64():
    f = nd.array(ramp((7, 9, 1), np.float64, 31, 107, 13.0), dtype="float64")
    out = mx.image.imresize(f, 4, 3, 3)
    assert out.dtype == np.float64
    check("area_f64_frac", out)


# -- colour kernels -------------------------------------------------------------------------
def test_adjust_lighting_float32_table():
    g = nd.array(ramp((2, 3, 3), np.float32, 43, 251, 1.7))
    check("lighting", nd.image.adjust_lighting(g, alpha=(0.1, -0.05, 0.02)))


def test_float16_contrast_and_saturation_round_products_to_half():
    h = nd.array(ramp((3, 4, 3), np.float16, 47, 211, 3.3), dtype="float16")
    check("contrast_f16", nd.image.random_contrast(h, 0.7, 0.7))
    check("saturation_f16", nd.image.random_saturation(h, 0.7, 0.7))


# -- integer images -------------------------------------------------------------------------
@pytest.mark.parametrize("interp", [1, 3])
def test_int8_resize_uses_the_8bit_fixed_point_kernels(interp):
    i8 = nd.array(ramp((5, 6, 2), np.int8, 13, 120, 0), dtype="int8")
    out = mx.image.imresize(i8, 4, 7, interp)
    assert out.dtype == np.int8
    check(f"int8_{interp}", out)


def test_int8_resize_keeps_negative_pixels():
    # 1.9.1 resizes int8 as uint8 bytes, which turns -1 into 255; a signed kernel does not
    a = np.array([[-100, -1], [-50, 20]], np.int8)[:, :, None]
    out = mx.image.imresize(nd.array(a, dtype="int8"), 4, 4, 1).asnumpy()
    exact = mx.image.imresize(nd.array(a, dtype="float32"), 4, 4, 1).asnumpy()
    assert out.dtype == np.int8
    assert np.abs(out - exact).max() <= 1
    assert out[0, 0, 0] == -100 and out[0, 3, 0] == -1 and out[3, 3, 0] == 20


def test_nearest_resize_operator_takes_int32():
    i32 = nd.array(ramp((3, 4, 1), np.int32, 13, 1000, 0) - 300, dtype="int32")
    check("int32_nearest_op", nd.image.resize(i32, size=(6, 5), interp=0))
    with pytest.raises(mx.base.MXNetError, match="interp=0"):
        nd.image.resize(i32, size=(6, 5), interp=1)


# -- flips of odd sizes ---------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["uint8", "float32"])
def test_flip_odd_sizes_keep_the_middle_line(dtype):
    # 1.9.1 leaves the middle column (row) of an odd width (height) unwritten; we flip it
    a = ramp((5, 7, 3), dtype, 37, 101, 0)
    x = nd.array(a, dtype=dtype)
    assert (nd.image.flip_left_right(x).asnumpy() == a[:, ::-1]).all()
    assert (nd.image.flip_top_bottom(x).asnumpy() == a[::-1]).all()


# -- decoding and borders -------------------------------------------------------------------
# an 11x13 4:2:0 JPEG (quality 85) written by Pillow, zlib-compressed and base64-encoded
_JPEG = (
        "eNr7f+P/AwYBLzdPNwZGRgYGRiBk+H+bwZmBlZmFhYWZFUiwsrKysfNwsAMBPzc3J48gv5CQIL+goLCYjLiwiJSo"
        "oKCEooSUrKy8vLywuJKKkpyKjJy8HMgQRqBWdjZ2Pg4OPjkRQRE5ksH/AwyCHAzcDLzMjEoMTIKMzIKM/48wyAPd"
        "ycoIBgxQwMjEzAJ0JQcnFzdQwVYBBiZGZmYmoPuBHgDK1gLlGVgEWYUUDR3ZhAMT2ZUKRYwaJy7kUHbaeFA06OIH"
        "FeOkoiZOLjFxCUkpVTV1DU0tE1MzcwtLK2cXVzd3D0+v4JDQsPCIyKjklNS09IzMrOKS0rLyisqq5pbWtvaOzq5J"
        "k6dMnTZ9xsxZixYvWbps+YqVqzZt3rJ12/YdO3cdOnzk6LHjJ06eunT5ytVr12/cvPXw0eMnT589f/Hy1cdPn798"
        "/fb9x89fIH8xMjAzwgBWfwkC/cUEjBYWdpC/GJnKQQoEWVgVDdmEHAPZEwuFlYwaOUScJi7ceJBT2Tjog2hS0UUu"
        "MRWTh6ofQV4D+4w4jzWR5TO4xxD+usXAw8wIjDxmQQZ7hld/wh+9js33nu7ReeFUsvVVz5+7GgpqLZ40z1/x/Mg6"
        "G9bi3GJtf67NHje5Drrd+/F8u2n0w69Pj57vfZc0y/dFu9ZuB0lJhd/zi+MDs2bVzr+51v7i5ZbjDxuPJvcfdmtN"
        "Wfjt6x9hk8P3uTlPl/OKvfbt/38TALNOAGw=")
_JPEG_RGB = (
        "9ce9d7abe2cbc2cbace3d8abe4dc9dc5c48483895b58664232452526341d33302930141352151085cdbfc1f6"
        "e2ced8bdc9c298c8c4879fa064979e726a785546593927371d303028422a266a352da7e6de9acabedae8d1cd"
        "cda9c6cb93afb87f909c744f5e3f495e3d24361c242a1c392f25613d2d88bbbe95bebab8c8bbd0d9bc909e6d"
        "8b9966939e7c7781684e593b41462f3f3d304a3c316746357ea6b288a9b2a9bbbb859382b1c69f87986e9397"
        "806e6858675a476e5b4a6b53496f4e45784a3b93b2c786a3b58da5af758e887a987c8ca484797b6d8d807781"
        "675889695a8260568963588156466f87a3627e96587b8f678e935e8b76688a718690878479759d8175a58171"
        "957463a1806f947561767a9f6572955673932b516438665c688d7c7e8887908484b99d91c09d89a1826d9e86"
        "6e87795f775b8b514170384071344c705273784e69645d606996878ca6897bcdab92c8af91b3a6868e957671"
        "41756d4a82584f8e2b3769374c5f53646b787684a08c95bd9b8fdab79bd6b999c4ba979daa8c793b6e55255f"
        "2e1a6112124e333c5960667681788d917986d2ac9feabea3e5c19dddc9a8b4baa0")
_JPEG_GRAY = (
        "d0cfc5d6d7bd825e3c2d301c27b6e4d2bfbe999770502f2f3144d2bae1c9c3af9456542e273146acb1c2d394"
        "8f977b52423c3f4e9ba0b68dbb8e93685c5f595756ab9c9f868c9979836d71696d61837873837b7d8c7c888a"
        "7c887c7d726e4857808588a4a5898a7a694b43496a60608c90b2b3a68f555b593948607893a4bebeb9a3533a"
        "28193d667d82b6c8c8cbb5")


@pytest.mark.parametrize("flag,expected,channels", [(1, _JPEG_RGB, 3), (0, _JPEG_GRAY, 1)])
def test_jpeg_decode_bits(flag, expected, channels):
    pytest.importorskip("PIL")
    from PIL import features
    buf = zlib.decompress(base64.b64decode(_JPEG))
    out = mx.image.imdecode(buf, flag).asnumpy()
    ref = np.frombuffer(bytes.fromhex(expected), np.uint8).reshape(11, 13, channels)
    assert out.shape == ref.shape
    diff = np.abs(out.astype(int) - ref)
    # libjpeg-turbo 3.x (Pillow's) decodes as 1.9.1's OpenCV does, bit for bit (checked on
    # 22.5 million pixels of baseline, progressive, 4:4:4 / 4:2:2 / 4:2:0, gray and CMYK
    # files); another decoder may round a few pixels differently
    if (features.version("libjpeg_turbo") or "").startswith("3."):
        assert not diff.any()
    else:
        assert diff.max() <= 2


@pytest.mark.parametrize("base", [0, 1, 2, 3, 4])
def test_copy_make_border_isolated_flag(base):
    # OpenCV's BORDER_ISOLATED (16) changes nothing for a whole image; 1.9.1 accepts 16-20
    a = nd.array(np.arange(5 * 7 * 3, dtype=np.float32).reshape(5, 7, 3))
    plain = mx.image.copyMakeBorder(a, 2, 1, 3, 2, type=base, value=5).asnumpy()
    isolated = mx.image.copyMakeBorder(a, 2, 1, 3, 2, type=base + 16, value=5).asnumpy()
    assert (plain == isolated).all()
