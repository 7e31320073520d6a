/* dtype sizes and names. */
#include "pixflow/core.h"

size_t pf_dtype_size(pf_dtype dtype) {
    switch (dtype) {
    case PF_U8: return 1;
    case PF_U16: case PF_S16: case PF_F16: case PF_BF16: return 2;
    case PF_S32: case PF_F32: return 4;
    }
    return 0;
}

const char *pf_dtype_name(pf_dtype dtype) {
    switch (dtype) {
    case PF_U8: return "u8";
    case PF_U16: return "u16";
    case PF_S16: return "s16";
    case PF_S32: return "s32";
    case PF_F16: return "f16";
    case PF_BF16: return "bf16";
    case PF_F32: return "f32";
    }
    return "?";
}
