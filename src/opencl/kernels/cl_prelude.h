/* The OpenCL C prelude of every embedded program (src/opencl/cl_programs.c):
 * what the shared kernel bodies (src/kernels/gpu_*.h, plain C11 on the
 * host and CUDA C++ under nvcc) need from C that OpenCL C names
 * differently. The embedding drops every #include line of the bodies, so
 * this file stands in for <stdint.h>, <stddef.h>, <math.h> and <string.h>;
 * src/kernels/pf_hd.h maps the qualifiers (PF_HD, PF_GLOBAL) and the
 * rounding intrinsic for OpenCL.
 *
 * Exactness: the bodies must give the CPU reference's bits, so no FMA
 * contraction (OpenCL C allows it by default) and the build adds
 * -cl-fp32-correctly-rounded-divide-sqrt where the device offers it. */
#pragma OPENCL FP_CONTRACT OFF

typedef char int8_t;
typedef uchar uint8_t;
typedef short int16_t;
typedef ushort uint16_t;
typedef int int32_t;
typedef uint uint32_t;
typedef long int64_t;
typedef ulong uint64_t;

#define INT8_MIN (-128)
#define INT8_MAX 127
#define UINT8_MAX 255
#define INT16_MIN (-32768)
#define INT16_MAX 32767
#define UINT16_MAX 65535
#define INT32_MIN (-2147483647 - 1)
#define INT32_MAX 2147483647
#define UINT32_MAX 0xffffffffu
#define INT64_MAX 0x7fffffffffffffffL
#define INT64_MIN (-INT64_MAX - 1)

/* <math.h> names of the float functions the bodies call (OpenCL's are
 * overloaded on the argument type) */
#define floorf floor
#define ceilf ceil
#define fabsf fabs
#define sqrtf sqrt
#define fminf fmin
#define fmaxf fmax
#define truncf trunc
#define roundf round
#define lrintf(v) ((long)rint(v))
#define lrint(v) ((long)rint(v))
#define nearbyintf rint
#define rintf rint
#define fmaf fma
#define fmodf fmod
#define nextafterf nextafter
