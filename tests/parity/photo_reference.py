"""numpy transcription of torchvision 0.29 (transforms.v2.functional) photometric
kernels, the oracle of tests/parity/test_photo_torchvision.py.

torch itself is not installable on the build machines (its wheel pulls GBs
of CUDA libraries), so this module transcribes the float32 arithmetic of
torchvision's _color.py / _misc.py / _augment.py operation by operation on
HWC arrays (the channel axis last instead of torch's -3):

  * Python floats meet float32 tensors as float32 scalars (f32() below);
  * `a.add_(b, alpha=k)` is a fused multiply-add on x86-64 CPUs with AVX2,
    torch's default CPU capability there (ATen ufunc add: vec::fmadd), so
    it is fma32(b, k, a) here, computed exactly (see fma32);
  * `.to(torch.uint8)` truncates; to_dtype(scale=True) is x * f32(1/255)
    (u8 -> float) and trunc(x * f32(255.999)) (float -> u8);
  * torch.mean's reduction order cannot be reproduced: the mean is formed
    in double and rounded to float32 (pixflow does the same);
  * pow uses the correctly rounded float result (torch: SLEEF powf, 1 ulp),
    with torch's exact special cases for exponents 0.5, 2 and 3.

gaussian_noise draws z from pixflow's Philox4x32-10 + Box-Muller stream
(transcribed here too), since torch.randn is not reproducible outside torch.
"""
import numpy as np

F32 = np.float32


def f32(x):
    return np.float32(x)


def fma32(a, b, c):
    """Correctly rounded float32 a*b + c for float32 arrays (one rounding).
    The product is exact in double; the double sum s may be off the exact
    sum by e (TwoSum); rounding s to float32 is then wrong only when s lies
    exactly halfway between two floats and e != 0."""
    a = np.asarray(a, F32).astype(np.float64)
    b = np.asarray(b, F32).astype(np.float64)
    c = np.asarray(c, F32).astype(np.float64)
    p = a * b
    s = p + c
    bb = s - p
    e = (p - (s - bb)) + (c - bb)
    r = s.astype(F32)
    r64 = r.astype(np.float64)
    other = np.where(s > r64, np.nextafter(r, F32(np.inf)), np.nextafter(r, F32(-np.inf)))
    o64 = other.astype(np.float64)
    tie = (s == (r64 + o64) / 2) & (e != 0)
    fix = tie & ((e > 0) == (o64 > r64))
    return np.where(fix, other, r).astype(F32)


def u8_to_f(x):
    return x.astype(F32) * f32(1.0 / 255.0)


def f_to_u8(x):
    return trunc_u8(x * f32(255.0 + 1.0 - 1e-3))


def trunc_u8(x):
    """.to(torch.uint8) of values in [0, 255] (saturating outside)."""
    x = np.where(np.isnan(x), F32(0), x)
    return np.clip(np.trunc(x), 0, 255).astype(np.uint8)


def gray(img):
    r, g, b = (img[..., k].astype(F32) for k in range(3))
    return fma32(b, f32(0.114), fma32(g, f32(0.587), r * f32(0.2989)))


def blend(img, other, ratio):
    """_blend: img.mul(ratio).add_(other, alpha=1-ratio).clamp_(0, bound)."""
    fp = img.dtype == F32
    x = img.astype(F32) * f32(ratio)
    out = fma32(np.broadcast_to(np.asarray(other, F32), x.shape), f32(1.0 - ratio), x)
    out = np.clip(out, F32(0), F32(1.0 if fp else 255.0))
    return out if fp else trunc_u8(out)


def adjust_brightness(img, f):
    fp = img.dtype == F32
    out = np.clip(img.astype(F32) * f32(f), F32(0), F32(1.0 if fp else 255.0))
    return out if fp else trunc_u8(out)


def adjust_saturation(img, f):
    if img.shape[-1] == 1:
        return img.copy()
    g = gray(img)
    if img.dtype != F32:
        g = np.floor(g)
    return blend(img, g[..., None], f)


def adjust_contrast(img, f):
    fp = img.dtype == F32
    if img.shape[-1] == 3:
        g = gray(img)
        if not fp:
            g = np.floor(g)
    else:
        g = img[..., 0].astype(F32)
    mean = F32(np.sum(g.astype(np.float64)) / g.size)
    return blend(img, mean, f)


def rgb_to_grayscale(img, out_channels):
    if img.shape[-1] == 1:
        return np.repeat(img, out_channels, axis=-1)
    g = gray(img)
    g = g if img.dtype == F32 else trunc_u8(g)
    return np.repeat(g[..., None], out_channels, axis=-1)


def _rgb_to_hsv(img):
    r, g, b = img[..., 0], img[..., 1], img[..., 2]
    maxc = np.maximum(np.maximum(r, g), b)
    minc = np.minimum(np.minimum(r, g), b)
    eqc = maxc == minc
    cr = maxc - minc
    ones = np.ones_like(maxc)
    s = cr / np.where(eqc, ones, maxc)
    crd = np.where(eqc, ones, cr)
    rc = (maxc - r) / crd
    gc = (maxc - g) / crd
    bc = (maxc - b) / crd
    neq_r = maxc != r
    eq_g = maxc == g
    hg = ((rc + F32(2.0)) - bc) * (eq_g & neq_r).astype(F32)
    hr = (bc - gc) * (~neq_r).astype(F32)
    hb = ((gc + F32(4.0)) - rc) * (neq_r & ~eq_g).astype(F32)
    h = (hr + hg) + hb
    h = np.fmod(h * f32(1.0 / 6.0) + F32(1.0), F32(1.0))
    return h, s, maxc


def _remainder1(a):
    """torch.remainder(a, 1.0) for float32: fmod, then + 1 for negatives."""
    m = np.fmod(a, F32(1.0))
    return np.where((m != 0) & (m < 0), m + F32(1.0), m).astype(F32)


def _hsv_to_rgb(h, s, v):
    h6 = h * F32(6.0)
    i = np.floor(h6)
    f = h6 - i
    i = np.mod(i.astype(np.int32), 6)
    sxf = s * f
    oms = F32(1.0) - s
    q = np.clip((F32(1.0) - sxf) * v, F32(0), F32(1))
    t = np.clip((sxf + oms) * v, F32(0), F32(1))
    p = np.clip(oms * v, F32(0), F32(1))
    vpqt = np.stack((v, p, q, t), axis=-1)
    sel = np.array([[0, 2, 1, 1, 3, 0], [3, 0, 0, 2, 1, 1], [1, 1, 3, 0, 0, 2]])
    return np.stack([np.take_along_axis(vpqt, sel[c][i][..., None], -1)[..., 0] for c in range(3)], -1)


def adjust_hue(img, hue):
    if img.shape[-1] == 1:
        return img.copy()
    fp = img.dtype == F32
    x = img if fp else u8_to_f(img)
    h, s, v = _rgb_to_hsv(x)
    h = _remainder1(h + f32(hue))
    out = _hsv_to_rgb(h, s, v).astype(F32)
    return out if fp else f_to_u8(out)


def _pow(x, gamma):
    if gamma == 0.5:
        return np.sqrt(x)
    if gamma == 2.0:
        return x * x
    if gamma == 3.0:
        return (x * x) * x
    return np.power(x.astype(np.float64), np.float64(f32(gamma))).astype(F32)


def adjust_gamma(img, gamma, gain=1.0):
    fp = img.dtype == F32
    out = _pow(img if fp else u8_to_f(img), gamma)
    if gain != 1.0:
        out = np.clip(out * f32(gain), F32(0), F32(1))
    return out if fp else f_to_u8(out)


def invert(img):
    return (F32(1.0) - img) if img.dtype == F32 else (255 - img).astype(np.uint8)


def solarize(img, threshold):
    return np.where(img.astype(F32) >= f32(threshold), invert(img), img)


def posterize(img, bits):
    if img.dtype == F32:
        levels = 1 << bits
        return np.clip(np.floor(img * f32(levels)), F32(0), f32(levels - 1)) * f32(1.0 / levels)
    if bits >= 8:
        return img.copy()
    mask = ((1 << bits) - 1) << (8 - bits)
    return img & np.uint8(mask)


def autocontrast(img):
    fp = img.dtype == F32
    bound = 1.0 if fp else 255.0
    x = img.astype(F32)
    mn = x.min(axis=(0, 1), keepdims=True)
    mx = x.max(axis=(0, 1), keepdims=True)
    eq = mx == mn
    inv = (mx - mn) * f32(1.0 / bound)
    mn = np.where(eq, F32(0), mn)
    inv = np.where(eq, F32(1), inv)
    out = np.clip((x - mn) / inv, F32(0), f32(bound))
    return out if fp else trunc_u8(out)


def equalize(img):
    fp = img.dtype == F32
    q = f_to_u8(img) if fp else img
    out = np.empty_like(q)
    for c in range(q.shape[-1]):
        flat = q[..., c].reshape(-1).astype(np.int64)
        hist = np.bincount(flat, minlength=256)
        cum = np.cumsum(hist)
        idx = int(np.argmax(cum))
        step = (flat.size - hist[idx]) // 255
        if step == 0:
            out[..., c] = q[..., c]
            continue
        lut = np.clip((cum[:-1] + step // 2) // step, 0, 255)
        lut = np.concatenate([[0], lut]).astype(np.uint8)
        out[..., c] = lut[q[..., c]]
    return u8_to_f(out) if fp else out


def color_twist(img, m):
    """pixflow's own op: ((m0 r + m1 g) + m2 b) + m3 in float32, unfused;
    u8: round half even, saturate."""
    m = np.asarray(m, F32).reshape(3, 4)
    x = img.astype(F32)
    r, g, b = x[..., 0], x[..., 1], x[..., 2]
    out = np.stack([((m[c, 0] * r + m[c, 1] * g) + m[c, 2] * b) + m[c, 3] for c in range(3)], -1)
    if img.dtype == F32:
        return out
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


# ------------------------------------------------------- Philox + normals
M0, M1, W0, W1 = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85
MASK = 0xFFFFFFFF
OP_NOISE = 0x4E6F6973


def philox4x32_10(c0, c1, c2, c3, k0, k1):
    c = [np.asarray(v).astype(np.uint64) & np.uint64(MASK) for v in (c0, c1, c2, c3)]
    k0 = np.uint64(k0)
    k1 = np.uint64(k1)
    for r in range(10):
        if r:
            k0 = (k0 + np.uint64(W0)) & np.uint64(MASK)
            k1 = (k1 + np.uint64(W1)) & np.uint64(MASK)
        p0 = c[0] * np.uint64(M0)
        p1 = c[2] * np.uint64(M1)
        hi0, lo0 = p0 >> np.uint64(32), p0 & np.uint64(MASK)
        hi1, lo1 = p1 >> np.uint64(32), p1 & np.uint64(MASK)
        c = [hi1 ^ c[1] ^ k0, lo1, hi0 ^ c[3] ^ k1, lo0]
    return [v.astype(np.uint32) for v in c]


def _log_det(x):
    bits = x.view(np.uint32)
    e = (bits >> np.uint32(23)).astype(np.int32) - 126
    m = ((bits & np.uint32(0x7FFFFF)) | np.uint32(0x3F000000)).view(F32)
    small = m < F32(0.707106781186547524)
    e = np.where(small, e - 1, e)
    m = np.where(small, (m + m) - F32(1), m - F32(1)).astype(F32)
    z = m * m
    y = F32(7.0376836292e-2)
    for cst in (-1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1, 1.4249322787e-1,
                -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1):
        y = y * m + F32(cst)
    y = (y * m) * z
    fe = e.astype(F32)
    y = y + F32(-2.12194440e-4) * fe
    y = y + F32(-0.5) * z
    r = m + y
    return r + F32(0.693359375) * fe


def _sincos_2pi(k):
    k = k.astype(np.int64)
    q = (k + (1 << 21)) >> 22
    r = k - (q << 22)
    t = r.astype(F32) * F32(2.384185791015625e-7)
    a = t * F32(1.57079632679489662)
    z = a * a
    sp = F32(-1.9515295891e-4)
    sp = sp * z + F32(8.3321608736e-3)
    sp = sp * z + F32(-1.6666654611e-1)
    sn = ((sp * z) * a) + a
    cp = F32(2.443315711809948e-5)
    cp = cp * z + F32(-1.388731625493765e-3)
    cp = cp * z + F32(4.166664568298827e-2)
    cs = (((cp * z) * z) - F32(0.5) * z) + F32(1.0)
    q = q & 3
    s = np.select([q == 0, q == 1, q == 2], [sn, cs, -sn], -cs)
    c = np.select([q == 0, q == 1, q == 2], [cs, -sn, -cs], sn)
    return s.astype(F32), c.astype(F32)


def _box_muller(x1, x2):
    u1 = ((x1 >> np.uint32(8)).astype(np.uint32) + np.uint32(1)).astype(F32) * F32(5.9604644775390625e-8)
    rad = np.sqrt(F32(-2.0) * _log_det(u1.astype(F32)))
    s, c = _sincos_2pi(x2 >> np.uint32(8))
    return rad * c, rad * s


def philox_normals(nelem, seed, sample_id):
    """Normals 0 .. nelem-1 of a sample's noise stream."""
    nb = (nelem + 3) // 4
    blk = np.arange(nb, dtype=np.uint64)
    x = philox4x32_10(blk, sample_id & MASK, (sample_id >> 32) & MASK, OP_NOISE, seed & MASK,
                      (seed >> 32) & MASK)
    z0, z1 = _box_muller(x[0], x[1])
    z2, z3 = _box_muller(x[2], x[3])
    return np.stack([z0, z1, z2, z3], -1).reshape(-1)[:nelem].astype(F32)


def gaussian_noise(img, mean, sigma, clip, seed, sample_id):
    z = philox_normals(img.size, seed, sample_id).reshape(img.shape)
    if img.dtype == F32:
        out = img + (z * f32(sigma) + f32(mean))
        return np.clip(out, F32(0), F32(1)) if clip else out
    n = z * f32(sigma * 255) + f32(mean * 255)
    n = np.trunc(np.clip(n, -32768, 32767)).astype(np.int32)
    out = img.astype(np.int32) + n
    return (np.clip(out, 0, 255) if clip else out & 255).astype(np.uint8)


def erase(img, rects):
    out = img.copy()
    for (x, y, w, h, vals) in rects:
        for c in range(img.shape[-1]):
            v = vals[c]
            if img.dtype != F32:
                v = min(max(np.rint(v), 0), 255)
            out[y:y + h, x:x + w, c] = v
    return out
