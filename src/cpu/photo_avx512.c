#include "cpu/photo_exec.h"
void pfi_photo_fill_avx512(pfi_kfn *slots) { (void)slots; }
