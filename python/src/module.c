/* The _pixflow module: types, exceptions, constants and the op tables of
 * the ops_*.c files. Python modules in python/pixflow/ give the public
 * names (pixflow.cv, pixflow.ops, ...); this is their engine. */
#include "pfpy.h"

static PyObject *py_version(PyObject *self, PyObject *noarg) {
    (void)self;
    (void)noarg;
    return PyUnicode_FromString(pf_version());
}

static PyObject *py_build_info(PyObject *self, PyObject *noarg) {
    (void)self;
    (void)noarg;
    return PyUnicode_FromString(pf_build_info());
}

static PyObject *py_cuda_device_count(PyObject *self, PyObject *noarg) {
    (void)self;
    (void)noarg;
    int n = 0;
    pf_status st = pf_device_count(PF_DEVICE_CUDA, &n);
    return st == PF_OK ? PyLong_FromLong(n) : pfpy_raise(st);
}

static PyObject *py_opencl_device_count(PyObject *self, PyObject *noarg) {
    (void)self;
    (void)noarg;
    int n = 0;
    pf_status st = pf_device_count(PF_DEVICE_OPENCL, &n);
    return st == PF_OK ? PyLong_FromLong(n) : pfpy_raise(st);
}

static PyMethodDef core_methods[] = {
    {"version", py_version, METH_NOARGS, "version()\n--\n\nThe C library's version (pf_version)."},
    {"build_info", py_build_info, METH_NOARGS, "build_info()\n--\n\npf_build_info(): options baked into the build."},
    {"cuda_device_count", py_cuda_device_count, METH_NOARGS,
     "cuda_device_count()\n--\n\nCUDA devices pixflow can use (0 without CUDA or a GPU)."},
    {"opencl_device_count", py_opencl_device_count, METH_NOARGS,
     "opencl_device_count()\n--\n\nOpenCL devices the ICD loader lists (0 without the OpenCL backend or an ICD)."},
    {"set_num_threads", pfpy_set_num_threads, METH_O,
     "set_num_threads(n, /)\n--\n\nThreads each op call may use (<= 0: one per CPU; 1: the calling thread)."},
    {"get_num_threads", pfpy_get_num_threads, METH_NOARGS, "get_num_threads()\n--\n\nSee set_num_threads."},
    {NULL, NULL, 0, NULL}};

static void module_free(void *m) {
    (void)m;
    pfpy_streams_free();
    pfpy_devices_free();
}

static struct PyModuleDef moddef = {
    PyModuleDef_HEAD_INIT, "_pixflow",
    "pixflow's C extension: the public C API (include/pixflow/) for Python. Use the pixflow package.",
    -1, core_methods, NULL, NULL, NULL, module_free};

static int add_methods(PyObject *m, PyMethodDef *defs) {
    return PyModule_AddFunctions(m, defs);
}

PyMODINIT_FUNC PyInit__pixflow(void);

PyMODINIT_FUNC PyInit__pixflow(void) {
    PyObject *m = PyModule_Create(&moddef);
    if (m == NULL) return NULL;
    if (pfpy_errors_init(m) < 0 || pfpy_constants_init(m) < 0 || pfpy_tensor_init_type(m) < 0 ||
        pfpy_devices_init(m) < 0 || pfpy_stream_type_init(m) < 0 || pfpy_pool_type_init(m) < 0 ||
        pfpy_device_results_init() < 0 ||
        add_methods(m, pfpy_resize_methods) < 0 || add_methods(m, pfpy_geom_methods) < 0 ||
        add_methods(m, pfpy_border_methods) < 0 || add_methods(m, pfpy_warp_methods) < 0 ||
        add_methods(m, pfpy_lut_methods) < 0 ||
        add_methods(m, pfpy_color_methods) < 0 || add_methods(m, pfpy_convert_methods) < 0 ||
        add_methods(m, pfpy_filter_methods) < 0 || add_methods(m, pfpy_photo_methods) < 0 ||
        add_methods(m, pfpy_post_nms_methods) < 0 ||
        add_methods(m, pfpy_post_boxes_methods) < 0 || add_methods(m, pfpy_post_heads_methods) < 0 ||
        add_methods(m, pfpy_post_masks_methods) < 0 || add_methods(m, pfpy_post_regions_methods) < 0 || add_methods(m, pfpy_post_image_methods) < 0 ||
        add_methods(m, pfpy_codec_methods) < 0 || add_methods(m, pfpy_augment_methods) < 0 ||
        add_methods(m, pfpy_pipeline_methods) < 0 || add_methods(m, pfpy_source_methods) < 0 || add_methods(m, pfpy_pack_methods) < 0 ||
        pfpy_augment_init(m) < 0 || pfpy_pipeline_init(m) < 0 || pfpy_video_init(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
