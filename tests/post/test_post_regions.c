/* Regions without OpenCV at hand (the exact comparison with OpenCV is
 * tests/post/parity_post.cpp): argument checks and hand-checked results of
 * connected components, contours, minAreaRect / boxPoints, fillPoly and
 * the polygon mean score. */
#include <math.h>
#include <string.h>

#include "test_util.h"
#include "pixflow/post.h"

int main(void) {
    /* two blobs and a hole: 8x6 */
    uint8_t m[6][8] = {{0, 0, 0, 0, 0, 0, 0, 0}, {0, 1, 1, 1, 0, 0, 0, 0}, {0, 1, 0, 1, 0, 0, 9, 0},
                       {0, 1, 1, 1, 0, 9, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0}};
    pf_image src = pf_image_hwc(m, 8, 6, 1, PF_U8, 0);
    int32_t lab[6][8];
    pf_image li = pf_image_hwc(lab, 8, 6, 1, PF_S32, 0);
    pf_cc_stats st[8];
    int32_t n = 0;
    CHECK_STATUS(pf_connected_components(&src, 8, &li, &n, st, 8), PF_OK);
    CHECK(n == 3 && lab[1][1] == 1 && lab[2][6] == 2 && lab[3][5] == 2 && lab[2][2] == 0);
    CHECK(st[1].left == 1 && st[1].top == 1 && st[1].width == 3 && st[1].height == 3 && st[1].area == 8);
    CHECK(st[1].cx == 2.0 && st[1].cy == 2.0 && st[2].area == 2);
    CHECK_STATUS(pf_connected_components(&src, 4, &li, &n, st, 2), PF_OK); /* capacity < labels: counted */
    CHECK(n == 4);
    CHECK_STATUS(pf_connected_components(&src, 6, &li, &n, st, 8), PF_ERR_INVALID_ARGUMENT);
    CHECK_MSG("connectivity");

    pf_contours *c = NULL;
    CHECK_STATUS(pf_contours_create(&c), PF_OK);
    CHECK_STATUS(pf_find_contours(&src, PF_RETR_EXTERNAL, c), PF_OK);
    CHECK(pf_contours_count(c) == 2);
    int32_t np = 0;
    const int32_t *p = pf_contours_points(c, 1, &np); /* the first found (the square) comes last */
    CHECK(np == 4 && p[0] == 1 && p[1] == 1 && p[2] == 1 && p[3] == 3 && p[4] == 3 && p[5] == 3);
    CHECK_STATUS(pf_find_contours(&src, PF_RETR_LIST, c), PF_OK);
    CHECK(pf_contours_count(c) == 3); /* plus the hole */
    CHECK(pf_contours_points(c, 7, &np) == NULL && np == 0);
    CHECK_STATUS(pf_find_contours(&src, (pf_contour_mode)3, c), PF_ERR_INVALID_ARGUMENT);
    pf_contours_destroy(c);
    pf_contours_destroy(NULL);

    int32_t sq[8] = {1, 1, 1, 3, 3, 3, 3, 1};
    pf_rotated_rect r;
    CHECK_STATUS(pf_min_area_rect(sq, 4, &r), PF_OK);
    CHECK(r.cx == 2 && r.cy == 2 && r.width == 2 && r.height == 2);
    float corners[8];
    CHECK_STATUS(pf_box_points(&r, corners), PF_OK);
    float xs = 0;
    for (int k = 0; k < 4; k++) xs += corners[2 * k];
    CHECK(fabsf(xs - 8) < 1e-5f);
    int32_t one[2] = {5, 7};
    CHECK_STATUS(pf_min_area_rect(one, 1, &r), PF_OK);
    CHECK(r.cx == 5 && r.cy == 7 && r.width == 0);
    CHECK_STATUS(pf_min_area_rect(NULL, 3, &r), PF_ERR_INVALID_ARGUMENT);

    uint8_t canvas[10][10];
    memset(canvas, 0, sizeof canvas);
    pf_image ci = pf_image_hwc(canvas, 10, 10, 1, PF_U8, 0);
    int32_t tri[6] = {0, 0, 9, 0, 0, 9};
    CHECK_STATUS(pf_fill_poly(&ci, tri, 3, 7), PF_OK);
    CHECK(canvas[0][0] == 7 && canvas[9][0] == 7 && canvas[0][9] == 7 && canvas[9][9] == 0 && canvas[4][4] == 7);
    int32_t far[6] = {-100000, -5, 100000, 3, 4, 100000}; /* clipped */
    CHECK_STATUS(pf_fill_poly(&ci, far, 3, 1), PF_OK);

    float score[4][4] = {{1, 1, 0, 0}, {1, 1, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}};
    pf_image si = pf_image_hwc(score, 4, 4, 1, PF_F32, 0);
    float quad[8] = {0, 0, 1, 0, 1, 1, 0, 1};
    double mean = -1;
    CHECK_STATUS(pf_poly_mean_score(&si, quad, 4, &mean), PF_OK);
    CHECK(mean == 1.0);
    float big[8] = {0, 0, 3, 0, 3, 3, 0, 3};
    CHECK_STATUS(pf_poly_mean_score(&si, big, 4, &mean), PF_OK);
    CHECK(mean == 4.0 / 16.0);
    float bad[8] = {NAN, 0, 1, 0, 1, 1, 0, 1};
    CHECK_STATUS(pf_poly_mean_score(&si, bad, 4, &mean), PF_ERR_INVALID_ARGUMENT);
    return pft_summary("post_regions");
}
