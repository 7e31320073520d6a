/* Version and build description. */
#include "pixflow/core.h"

#define PFI_STR2(x) #x
#define PFI_STR(x) PFI_STR2(x)

const char *pf_version(void) {
    return PFI_STR(PF_VERSION_MAJOR) "." PFI_STR(PF_VERSION_MINOR) "." PFI_STR(PF_VERSION_PATCH);
}

const char *pf_build_info(void) {
    return "cuda="
#ifdef PF_HAVE_CUDA
           "on"
#else
           "off"
#endif
           " opencl="
#ifdef PF_HAVE_OPENCL
           "on"
#else
           "off"
#endif
           " codec="
#ifdef PF_HAVE_CODEC
           "jpeg,png,webp"
#else
           "off"
#endif
           " video="
#ifdef PF_HAVE_VIDEO
           "ffmpeg"
#else
           "off"
#endif
           " simd="
#if defined(PF_HAVE_X86)
           "sse4,avx2,avx512,avx512vbmi"
#elif defined(PF_HAVE_NEON)
           "neon"
#else
           "none"
#endif
           " compiler="
#if defined(__clang__)
           "clang-" __clang_version__
#elif defined(__GNUC__)
           "gcc-" __VERSION__
#else
           "unknown"
#endif
        ;
}
