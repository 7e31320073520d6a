#include "pixflow/codec.h"
#include "test_util.h"
int main(void) { return pft_summary("test_decode_augment"); }
