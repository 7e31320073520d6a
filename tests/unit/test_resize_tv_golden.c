/* The torchvision resize flavour against goldens from torch itself: every
 * case is an LCG image resized by torchvision 0.29.2 / torch 2.15.0
 * (F.resize on a CHW uint8 tensor, the native uint8 path) and hashed
 * (FNV-1a 64 of the HWC bytes); tests/parity/gen_resize_tv_golden.py
 * prints the table. pf_resize(PF_RESIZE_TORCHVISION) must reproduce every
 * hash at every ISA level this CPU has, for HWC and CHW views, on the NULL
 * stream and a 2-thread stream: u8 bit-exact with torch without torch at
 * test time (the pytest oracle in tests/python runs the real library). */
#include <stdlib.h>
#include <string.h>

#include "pixflow/pixflow.h"
#include "test_util.h"

typedef struct golden {
    int sw, sh, cn, dw, dh, interp, aa;
    uint64_t seed, hash;
} golden;

static const golden k_golden[] = {
/* torch 2.15.0+cu132, torchvision 0.29.2+cu132 */
    {233, 82, 3, 54, 45, 2, 1, 0x30a00749581baca3ull, 0x268d5a9c30b85cffull},
    {212, 118, 1, 122, 120, 2, 1, 0x26b416d28618ef57ull, 0xdf363104fb39e86dull},
    {113, 4, 3, 11, 2, 2, 0, 0x2d30bb14f299736eull, 0x62e1f8ed507e6aa8ull},
    {220, 4, 1, 1, 86, 0, 0, 0x2ddd7ce5efc0e155ull, 0x8f30fa9cb9f241afull},
    {60, 33, 3, 129, 1, 2, 1, 0x19f7d08717f7c70ull, 0xa7be5d595e0a8364ull},
    {38, 138, 1, 5, 108, 1, 0, 0x112dd2bb5cd6c539ull, 0x597f8492e3f8cf36ull},
    {222, 95, 3, 79, 244, 2, 0, 0x4741915284d493ull, 0x925e0765021e0678ull},
    {256, 177, 1, 22, 106, 2, 0, 0x2b7d6687ff15cddull, 0x8a3d8f0fa584cdc1ull},
    {170, 107, 4, 107, 159, 4, 1, 0x393928997734531full, 0x4516050f3ae85ae3ull},
    {227, 253, 4, 155, 2, 1, 1, 0x3006b497a81fdf9cull, 0x9f74bc78f3961319ull},
    {64, 175, 4, 117, 229, 0, 0, 0x38ab31696874c1d4ull, 0x7130243fa0f7269bull},
    {211, 214, 3, 118, 2, 4, 1, 0x122d722ade162a7dull, 0x7f2784b301607a74ull},
    {148, 94, 4, 150, 4, 1, 0, 0x343877df7848a981ull, 0xd0f1f8b3120902f0ull},
    {17, 215, 3, 216, 3, 2, 1, 0x210fbe84f581ae6eull, 0x0fdc0aa38a8723b6ull},
    {200, 1, 3, 146, 2, 0, 0, 0x19885c21d6ba7c17ull, 0x271f01b12ed80bb5ull},
    {228, 4, 1, 112, 3, 0, 0, 0x3d047eb7bdf8790cull, 0x868424b41adac611ull},
    {89, 123, 3, 1, 6, 4, 1, 0x36616b01a622013aull, 0xa4dc26aa8ee16419ull},
    {239, 106, 3, 178, 84, 4, 1, 0x355b300cc03f59f7ull, 0xea3b96ca6cc8e464ull},
    {223, 230, 3, 242, 252, 6, 0, 0x27bb13ce2820e373ull, 0x369bc0e14b88da6cull},
    {152, 3, 3, 132, 93, 4, 1, 0x7cb26dafe72a107ull, 0x00df230cabfbff0eull},
    {10, 244, 3, 240, 71, 6, 0, 0x231f280cd38e5431ull, 0xcdc93c48d2a26c2dull},
    {109, 186, 4, 140, 233, 4, 1, 0x1f43bddbc2748762ull, 0xc4db4d47feb68ebcull},
    {2, 2, 3, 244, 41, 2, 0, 0x196e45f920eb0154ull, 0xe4b883d9a85700edull},
    {4, 105, 4, 87, 3, 0, 0, 0x80935ebb93f682eull, 0x597092b668c58cbaull},
    {158, 16, 3, 230, 27, 4, 1, 0x11519f506ffd56e2ull, 0xc89b5472d490eedcull},
    {224, 5, 4, 4, 236, 1, 1, 0x3c8e408481e4349dull, 0x9bd2c58e104aa4c1ull},
    {211, 157, 1, 147, 16, 1, 1, 0x9fced11fdff6533ull, 0xb51513f774f9871dull},
    {4, 84, 1, 3, 244, 4, 1, 0x2e1f958ffc2e240bull, 0xd851cb55518df448ull},
    {178, 160, 4, 22, 219, 4, 1, 0x3ac04e36812d4606ull, 0x75aaf375c0f90905ull},
    {160, 100, 4, 183, 155, 2, 1, 0x152161708d1763dfull, 0xa8939ed28e56f0faull},
    {214, 116, 1, 59, 59, 4, 1, 0x3816b646f07a081aull, 0x293981e0ae601130ull},
    {12, 137, 3, 197, 69, 1, 1, 0x3b97d72ed776180full, 0x2047b607d58dce45ull},
    {248, 68, 4, 94, 64, 2, 1, 0x3470c90168293ad9ull, 0x630072a0e8852248ull},
    {4, 106, 1, 147, 1, 2, 1, 0x3b1e8df974088d1cull, 0x3d27306c9b16d95bull},
    {231, 76, 1, 66, 194, 1, 0, 0x2a1fa7939b0e38a7ull, 0xaccf76714182994aull},
    {1, 127, 3, 4, 193, 2, 1, 0x29e4c6ff30d3d1e4ull, 0x508baf4be7dde259ull},
    {137, 3, 3, 3, 41, 4, 1, 0x2e02b13f98a1a809ull, 0xacf91d4b7a614c65ull},
    {64, 45, 3, 8, 60, 4, 1, 0x23ec64ed98732259ull, 0xc77763908ff49c60ull},
    {133, 26, 1, 190, 246, 2, 1, 0x244fe25efbd7a55bull, 0x4ef1958e41928a25ull},
    {2, 244, 4, 3, 123, 0, 0, 0xb21340cf506f7dfull, 0x5eec19707f5d0700ull},
    {231, 61, 4, 141, 197, 4, 1, 0x3ad5979a82fee38full, 0x2f50d1884290c0ceull},
    {247, 227, 3, 106, 247, 1, 0, 0x3d243c9889e2455eull, 0x585f7481e488f012ull},
    {3, 233, 1, 182, 235, 2, 0, 0xaf75a4cd152ed52ull, 0x2103b6d76a80c2d3ull},
    {5, 3, 3, 221, 161, 4, 1, 0xf15f32d04e6db7full, 0x3530f8f1ef2820c5ull},
    {54, 164, 1, 208, 73, 0, 0, 0x267bd77de46f2465ull, 0x1eb1e256bc89d607ull},
    {209, 232, 3, 155, 90, 2, 0, 0x199da1b30e672b17ull, 0x6fd3258b913f42d3ull},
    {4, 183, 1, 116, 219, 6, 0, 0x39cf07124731c14dull, 0x116f2906d371643eull},
    {161, 160, 3, 124, 53, 2, 0, 0x3846464d9390db40ull, 0x96b6026407448294ull},
    {131, 83, 3, 4, 72, 1, 0, 0x168b1fea6b7f15c3ull, 0x4a4de1e3110b826full},
    {69, 102, 1, 74, 96, 6, 0, 0x32ffafb3e0a4c5f9ull, 0x86505997bf836698ull},
    {2, 249, 4, 125, 1, 4, 1, 0x10b6f758282609f2ull, 0x31ab38bcedfe6ba3ull},
    {178, 169, 3, 242, 107, 2, 1, 0x6ab55338edd1081ull, 0xc2fc0de4b7bb47edull},
    {47, 83, 1, 166, 34, 1, 0, 0x2dc25ae8299f728dull, 0xe876418a5e440c4cull},
    {178, 101, 1, 67, 2, 4, 1, 0x718be222991afeull, 0x690d3ea3b94ac427ull},
    {77, 86, 4, 219, 240, 4, 1, 0x3534fe07a26c06d5ull, 0x564ece0dec1572f3ull},
    {161, 172, 4, 151, 23, 6, 0, 0xcf79d45f362331full, 0xfde7fcb53254a90cull},
    {2, 115, 3, 1, 214, 1, 0, 0x6880ec8154facdeull, 0xb3ae0333f9f2bea8ull},
    {17, 189, 4, 226, 199, 2, 1, 0x265ace48937a4670ull, 0xdf55c0a85f7033f7ull},
    {237, 182, 1, 37, 198, 6, 0, 0x2964cd545737b85aull, 0x9ca31b0ccbbd3469ull},
    {116, 107, 3, 256, 207, 2, 0, 0x305a78896ebd6e55ull, 0x5d50055da1a44d2eull},
    {234, 49, 3, 197, 225, 1, 0, 0x128b62ddac9d00cdull, 0xe56cd90796dcf5daull},
    {170, 1, 4, 123, 205, 4, 1, 0x58a6b3d94800128ull, 0x9727d810ffeb0002ull},
    {248, 250, 1, 155, 185, 1, 0, 0x19a089691d1ed0f4ull, 0xbba9a7d134c3738eull},
    {233, 236, 3, 240, 170, 1, 0, 0x3728a8745332081eull, 0x4a186ef0dc8ca3e4ull},
    {113, 66, 3, 190, 239, 4, 1, 0x10d7c398b4c96335ull, 0x3934c1fd8d7ed724ull},
    {176, 212, 3, 2, 119, 2, 0, 0x32cdb6ea659de509ull, 0x58a1a457d347b13eull},
    {58, 1, 1, 161, 174, 1, 1, 0x39d3dae94c4fc321ull, 0x14820b4ac678d837ull},
    {26, 4, 3, 31, 159, 2, 0, 0x1889a0ae4c68a48ull, 0xff9c0c28730e4f26ull},
    {145, 161, 4, 240, 87, 1, 0, 0x194ac3ceede7923dull, 0x10aafb63739d2335ull},
    {140, 3, 3, 246, 86, 1, 1, 0x14a1eff68f05bc89ull, 0x02996c23ee40ce69ull},
    {4, 109, 4, 14, 90, 2, 0, 0x322b600780dff80eull, 0xd706ca3025edfe5eull},
    {4, 152, 3, 249, 246, 2, 1, 0x2f744d11bdbefff1ull, 0x8d6ab9cb442024c6ull},
    {106, 76, 3, 179, 30, 2, 1, 0xf55a336aca45abaull, 0x58a06c36889e8cf1ull},
    {148, 214, 4, 240, 76, 2, 1, 0xe7b7a8d62487296ull, 0xaca7beb6f9f81b87ull},
    {219, 75, 3, 1, 193, 6, 0, 0x312074c119751463ull, 0xc1d576f6acef52cfull},
    {165, 130, 3, 40, 4, 0, 0, 0xef0385b38bff6c8ull, 0xe8404729328d15c4ull},
    {173, 10, 1, 28, 155, 2, 0, 0x3c1d302f5340d6e0ull, 0xc3314db85fea58b3ull},
    {5, 238, 3, 166, 45, 4, 1, 0x1232794d1a54a7d3ull, 0x996a0b2462a20b8aull},
    {217, 96, 4, 146, 131, 6, 0, 0x37fc769210d7a2a6ull, 0x7a76e1b679957ff5ull},
    {3, 231, 1, 193, 37, 1, 0, 0x28f0e893fa8e7a47ull, 0x4bb41866cb6d1690ull},
    {1, 2, 3, 3, 247, 2, 0, 0x1a750009cc6cd024ull, 0x38be8633b2ab8065ull},
    {74, 3, 1, 17, 132, 6, 0, 0x36f9f5b00c1d6ff5ull, 0x7e978f8a197fac15ull},
    {62, 1, 3, 258, 3, 1, 0, 0x3c37f99716d510fcull, 0xc410263eea152562ull},
    {4, 119, 4, 1, 110, 4, 1, 0x12e8f8f6e219f299ull, 0xab6bfe307e2ea14cull},
    {54, 14, 1, 185, 76, 0, 0, 0x1dd222f5200f39d9ull, 0xb7ac19530ca3ec7aull},
    {2, 1, 3, 151, 206, 6, 0, 0x3aebc995e1518eb9ull, 0xeac43f6f9f385c3dull},
    {4, 202, 1, 1, 12, 2, 1, 0xe5ebd25b63970c4ull, 0x3a3bfe58f5185c5dull},
    {143, 3, 1, 146, 32, 1, 1, 0x2e347addb5dec5eull, 0x950e1ec0ae97b140ull},
    {227, 199, 3, 106, 235, 0, 0, 0x1697f30112c56132ull, 0xe9281a5e54ab9bebull},
    {18, 1, 4, 135, 121, 2, 1, 0x209e8e2114202170ull, 0x850de9d13b3143b3ull},
    {145, 65, 3, 2, 4, 0, 0, 0x8e78cafa6a0b831ull, 0x52019ddfbf12f1adull},
    {209, 103, 4, 172, 109, 2, 0, 0x1ae31f309cd76688ull, 0x30cc8f6c5a7c2c69ull},
    {181, 50, 1, 219, 197, 1, 1, 0x8596485ae4a230cull, 0x9d3c8965d4078621ull},
    {147, 235, 4, 126, 151, 1, 1, 0x1443aa7b507468c7ull, 0x0519cbf4bd3e5449ull},
    {40, 201, 3, 224, 84, 4, 1, 0x395f4cd6f54cb818ull, 0xb31cb6977ad8bf86ull},
    {175, 100, 4, 135, 24, 6, 0, 0x25037a73d0e79198ull, 0x2f614b51fb922966ull},
};

static void lcg_fill(uint8_t *p, size_t n, uint64_t s) {
    for (size_t i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        p[i] = (uint8_t)(s >> 56);
    }
}

static uint64_t fnv1a(const uint8_t *p, size_t n) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* One case through pf_resize, HWC or CHW (converted back to HWC bytes). */
static uint64_t run(const golden *g, int chw, pf_stream *s) {
    size_t sn = (size_t)g->sw * g->sh * g->cn, dn = (size_t)g->dw * g->dh * g->cn;
    uint8_t *a = malloc(sn), *b = malloc(dn), *pa = malloc(sn), *pb = malloc(dn);
    lcg_fill(a, sn, g->seed);
    pf_resize_opts o = pf_resize_opts_defaults();
    o.interp = (pf_interp)g->interp;
    o.antialias = g->aa != 0;
    o.flavor = PF_RESIZE_TORCHVISION;
    uint64_t h = 0;
    if (!chw) {
        pf_image src = pf_image_hwc(a, g->sw, g->sh, g->cn, PF_U8, 0), dst = pf_image_hwc(b, g->dw, g->dh, g->cn, PF_U8, 0);
        CHECK_STATUS(pf_resize(s, 1, &src, &dst, &o), PF_OK);
        h = fnv1a(b, dn);
    } else {
        size_t sp = (size_t)g->sw * g->sh, dp = (size_t)g->dw * g->dh;
        for (size_t i = 0; i < sp; i++)
            for (int c = 0; c < g->cn; c++) pa[(size_t)c * sp + i] = a[i * (size_t)g->cn + (size_t)c];
        pf_image src = pf_image_chw(pa, g->sw, g->sh, g->cn, PF_U8, 0, 0);
        pf_image dst = pf_image_chw(pb, g->dw, g->dh, g->cn, PF_U8, 0, 0);
        CHECK_STATUS(pf_resize(s, 1, &src, &dst, &o), PF_OK);
        for (size_t i = 0; i < dp; i++)
            for (int c = 0; c < g->cn; c++) b[i * (size_t)g->cn + (size_t)c] = pb[(size_t)c * dp + i];
        h = fnv1a(b, dn);
    }
    free(a);
    free(b);
    free(pa);
    free(pb);
    return h;
}

int main(void) {
    const pf_isa levels[] = {PF_ISA_SCALAR, PF_ISA_SSE4, PF_ISA_AVX2, PF_ISA_AVX512, PF_ISA_AVX512VBMI,
                              PF_ISA_NEON};
    pf_stream *s2 = NULL;
    CHECK_STATUS(pf_stream_create_cpu(2, &s2), PF_OK);
    int n = (int)(sizeof k_golden / sizeof k_golden[0]), runs = 0;
    for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
        pf_cpu_set_cap(levels[l]);
        if (pf_cpu_active_isa() != levels[l]) continue; /* not on this CPU / build */
        for (int i = 0; i < n; i++)
            for (int v = 0; v < 3; v++) {
                uint64_t h = run(&k_golden[i], v == 1, v == 2 ? s2 : NULL);
                runs++;
                if (h != k_golden[i].hash) {
                    const golden *g = &k_golden[i];
                    fprintf(stderr, "golden %d at %s (%s): %dx%dx%d -> %dx%d interp %d aa %d: hash %016llx, torch %016llx\n",
                            i, pf_isa_name(levels[l]), v == 1 ? "CHW" : v == 2 ? "2 threads" : "HWC", g->sw, g->sh,
                            g->cn, g->dw, g->dh, g->interp, g->aa, (unsigned long long)h, (unsigned long long)g->hash);
                }
                CHECK(h == k_golden[i].hash);
            }
    }
    pf_cpu_set_cap(PF_ISA_NEON); /* uncapped */
    pf_stream_destroy(s2);
    printf("test_resize_tv_golden: %d torch goldens, %d runs\n", n, runs);
    return pft_summary("test_resize_tv_golden");
}
