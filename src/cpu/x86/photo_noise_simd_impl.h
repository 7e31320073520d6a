/*
 * Gaussian noise over lanes (included by photo_simd_impl.h): PFS_N Philox
 * blocks per step, one per lane (4 * PFS_N normals), with the exact integer
 * and float sequence of src/kernels/philox.h (no FMA: the reference's
 * polynomials are unfused); then a 4 x PFS_N transpose puts the normals in
 * element order (element 4b + c is component c of block b).
 *
 * Extra vocabulary: vi_add vi_xor vi_and vi_srli vi_slli vi_mullo
 *   vi_mulhi_u32 (high 32 bits of the unsigned product), vi_gt -> VM,
 *   vi_iota (0 .. N-1), vi_as_vf / vf_as_vi (bit casts), vf_sqrt,
 *   transpose4(z0, z1, z2, z3, out[4]): lane l of z_c is component c of
 *   block l; out[v] receives elements [v N, v N + N) of the step.
 */

typedef struct PFS(u4) { VI c0, c1, c2, c3; } PFS(u4);

PFS_AI PFS(u4) PFS(philox)(VI c0, const pfi_photo_k *k) {
    PFS(u4) c = {c0, vi_set1(k->ctr[0]), vi_set1(k->ctr[1]), vi_set1(k->ctr[2])};
    const VI M0 = vi_set1(PFK_PHILOX_M0), M1 = vi_set1(PFK_PHILOX_M1);
    uint32_t k0 = k->key[0], k1 = k->key[1];
    for (int r = 0; r < 10; r++) {
        if (r > 0) {
            k0 += PFK_PHILOX_W0;
            k1 += PFK_PHILOX_W1;
        }
        VI hi0 = vi_mulhi_u32(c.c0, M0), lo0 = vi_mullo(c.c0, M0);
        VI hi1 = vi_mulhi_u32(c.c2, M1), lo1 = vi_mullo(c.c2, M1);
        PFS(u4) nx = {vi_xor(vi_xor(hi1, c.c1), vi_set1(k0)), lo1, vi_xor(vi_xor(hi0, c.c3), vi_set1(k1)), lo0};
        c = nx;
    }
    return c;
}

PFS_AI VF PFS(log)(VF x) {
    VI bits = vf_as_vi(x);
    VI e = vi_sub(vi_srli(bits, 23), vi_set1(126));
    VF m = vi_as_vf(vi_or(vi_and(bits, vi_set1(0x7fffff)), vi_set1(0x3f000000)));
    VM small = vf_lt(m, vf_set1(0.707106781186547524f));
    e = vi_sel(small, vi_sub(e, vi_set1(1)), e);
    m = vf_sel(small, vf_sub(vf_add(m, m), vf_set1(1.0f)), vf_sub(m, vf_set1(1.0f)));
    VF z = vf_mul(m, m);
    VF y = vf_set1(7.0376836292e-2f);
    y = vf_add(vf_mul(y, m), vf_set1(-1.1514610310e-1f));
    y = vf_add(vf_mul(y, m), vf_set1(1.1676998740e-1f));
    y = vf_add(vf_mul(y, m), vf_set1(-1.2420140846e-1f));
    y = vf_add(vf_mul(y, m), vf_set1(1.4249322787e-1f));
    y = vf_add(vf_mul(y, m), vf_set1(-1.6668057665e-1f));
    y = vf_add(vf_mul(y, m), vf_set1(2.0000714765e-1f));
    y = vf_add(vf_mul(y, m), vf_set1(-2.4999993993e-1f));
    y = vf_add(vf_mul(y, m), vf_set1(3.3333331174e-1f));
    y = vf_mul(vf_mul(y, m), z);
    VF fe = vf_from_vi(e);
    y = vf_add(y, vf_mul(vf_set1(-2.12194440e-4f), fe));
    y = vf_add(y, vf_mul(vf_set1(-0.5f), z));
    VF r = vf_add(m, y);
    return vf_add(r, vf_mul(vf_set1(0.693359375f), fe));
}

/* Box-Muller on word pairs: z0 = R cos, z1 = R sin. */
PFS_AI void PFS(box_muller)(VI x1, VI x2, VF *z0, VF *z1) {
    VF u1 = vf_mul(vf_from_vi(vi_add(vi_srli(x1, 8), vi_set1(1))), vf_set1(5.9604644775390625e-8f));
    VF rad = vf_sqrt(vf_mul(vf_set1(-2.0f), PFS(log)(u1)));
    VI kk = vi_srli(x2, 8);
    VI q = vi_srli(vi_add(kk, vi_set1(1 << 21)), 22);
    VI r = vi_sub(kk, vi_slli(q, 22));
    VF t = vf_mul(vf_from_vi(r), vf_set1(2.384185791015625e-7f));
    VF a = vf_mul(t, vf_set1(1.57079632679489662f));
    VF z = vf_mul(a, a);
    VF sp = vf_set1(-1.9515295891e-4f);
    sp = vf_add(vf_mul(sp, z), vf_set1(8.3321608736e-3f));
    sp = vf_add(vf_mul(sp, z), vf_set1(-1.6666654611e-1f));
    VF sn = vf_add(vf_mul(vf_mul(sp, z), a), a);
    VF cp = vf_set1(2.443315711809948e-5f);
    cp = vf_add(vf_mul(cp, z), vf_set1(-1.388731625493765e-3f));
    cp = vf_add(vf_mul(cp, z), vf_set1(4.166664568298827e-2f));
    VF cs = vf_add(vf_sub(vf_mul(vf_mul(cp, z), z), vf_mul(vf_set1(0.5f), z)), vf_set1(1.0f));
    VI q3 = vi_and(q, vi_set1(3));
    VM odd = vi_eq(vi_and(q3, vi_set1(1)), vi_set1(1));         /* q = 1, 3: swap */
    VM sneg = vi_gt(q3, vi_set1(1));                            /* q = 2, 3: sin negated */
    VM cneg = vm_or(vi_eq(q3, vi_set1(1)), vi_eq(q3, vi_set1(2))); /* q = 1, 2: cos negated */
    VI si = vf_as_vi(vf_sel(odd, cs, sn)), ci = vf_as_vi(vf_sel(odd, sn, cs));
    const VI sign = vi_set1(0x80000000u);
    VF s = vi_as_vf(vi_sel(sneg, vi_xor(si, sign), si));
    VF c = vi_as_vf(vi_sel(cneg, vi_xor(ci, sign), ci));
    *z0 = vf_mul(rad, c);
    *z1 = vf_mul(rad, s);
}

/* 4 * PFS_N normals of blocks b0 .. b0 + PFS_N - 1 in element order. */
PFS_AI void PFS(normals)(uint32_t b0, const pfi_photo_k *k, VF out[4]) {
    PFS(u4) x = PFS(philox)(vi_add(vi_set1(b0), vi_iota()), k);
    VF z0, z1, z2, z3;
    PFS(box_muller)(x.c0, x.c1, &z0, &z1);
    PFS(box_muller)(x.c2, x.c3, &z2, &z3);
    transpose4(z0, z1, z2, z3, out);
}

static void PFS(noise_f32)(const void *src, void *dst, int32_t n, uint64_t e0, const pfi_photo_k *k) {
    const float *s = src;
    float *d = dst;
    VF sg = vf_set1(k->sigma), mu = vf_set1(k->mean);
    for (int32_t j = 0; j < n; j += 4 * PFS_N) {
        VF z[4];
        PFS(normals)((uint32_t)((e0 + (uint64_t)j) >> 2), k, z);
        for (int v = 0; v < 4; v++) {
            VF o = vf_add(vf_ld(s + j + PFS_N * v), vf_add(vf_mul(z[v], sg), mu));
            if (k->clip) o = vf_min(vf_max(o, vf_zero()), vf_set1(1.0f));
            vf_st(d + j + PFS_N * v, o);
        }
    }
}

static void PFS(noise_u8)(const void *src, void *dst, int32_t n, uint64_t e0, const pfi_photo_k *k) {
    const uint8_t *s = src;
    uint8_t *d = dst;
    VF sg = vf_set1(k->sigma), mu = vf_set1(k->mean);
    for (int32_t j = 0; j < n; j += 4 * PFS_N) {
        VF z[4];
        PFS(normals)((uint32_t)((e0 + (uint64_t)j) >> 2), k, z);
        for (int v = 0; v < 4; v++) {
            VF nf = vf_add(vf_mul(z[v], sg), mu);
            nf = vf_max(vf_min(nf, vf_set1(32767.0f)), vf_set1(-32768.0f));
            VI o = vi_add(ld1u8(s + j + PFS_N * v), vi_trunc(nf));
            if (k->clip) o = vi_min(vi_max(o, vi_set1(0)), vi_set1(255));
            st1u8(d + j + PFS_N * v, vi_and(o, vi_set1(255))); /* no clip: wraps mod 256 */
        }
    }
}
