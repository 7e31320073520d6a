/*
 * pixflow dispatch: one fused-preprocess batch spread over several devices
 * (the CPU, CUDA GPUs, OpenCL devices) by their measured cost, with the
 * same output bytes wherever each sample ran.
 *
 *   pf_dispatch *d;
 *   pf_dispatch_config c = pf_dispatch_config_defaults();
 *   c.devices = "cpu,opencl:0";                  // or "auto": every device there is
 *   pf_dispatch_open(&c, &d);
 *   pf_dispatch_load_costs(d, "costs.json");     // optional: start calibrated
 *   for each batch:
 *     pf_dispatch_run(d, &desc, n, images, params, &tensor, NULL);
 *   pf_dispatch_save_costs(d, "costs.json");
 *   pf_dispatch_close(d);
 *
 * What it runs: pf_preprocess_run (include/pixflow/augment.h) of a plan
 * made from `desc`, on host source images (u8 HWC, any sizes) into a host
 * tensor, or into a tensor on one of the dispatcher's devices (dst.mem
 * PF_MEM_CUDA / PF_MEM_OPENCL and dst.device: that device writes its
 * samples in place, the others through a host tensor they upload into
 * dst on a stream of that device; another device's memory is
 * PF_ERR_INVALID_ARGUMENT naming dst). Each device runs a contiguous
 * range of samples [a, b) with params[a..b) and writes samples a..b-1 of
 * dst; every backend gives pf_preprocess_run's bits, so the batch is
 * byte-identical to running it on any one of the devices, for any split
 * (tests/opencl/test_hetero_props.c). pf_dispatch_run returns when dst
 * is complete (every device synchronized).
 *
 * Devices: "cpu" (a CPU stream of config.cpu_threads threads), "cuda:N",
 * "opencl:N" (N may be omitted: 0), comma separated, each at most once; or
 * "auto": the CPU, every CUDA device and every OpenCL device that opens.
 * A GPU device (CUDA, OpenCL) uploads each sample's source image,
 * runs the preprocess on its own stream and downloads its samples; those
 * copies are part of its measured cost and counted in its transfer bytes.
 *
 * Cost model: per (device, plan shape) the milliseconds per sample, the
 * device's wall time for its chunks (upload, preprocess, download) over
 * the samples it ran, updated after every batch as an EWMA
 * (config.ewma_alpha). The plan shape is a key string of the desc's
 * output size, channels, dtype, layout, interpolation, antialias, flavour
 * and letterbox ("224x224x3/f32/chw/linear/aa0/opencv/lb0"). A shape some
 * device has no cost for yet is calibrated: that batch is split in equal
 * shares taken in small chunks, and the devices' measured costs become
 * the model. The first batch of a new desc first runs sample 0 once on
 * every device, untimed (kernel builds, first allocations: not a cost
 * per sample), and the first chunk of each batch is left out of the
 * measurement when the device ran others. pf_dispatch_save_costs /
 * pf_dispatch_load_costs keep the model in a JSON file (format below).
 *
 * Placement: each device's share is its speed (1 / cost) over the sum of
 * the speeds, so all devices finish together. Devices take chunks of
 * samples from one shared cursor, each chunk half the remaining samples
 * times the device's share (at least 1), so chunks shrink towards the end
 * and a device that runs slower than its estimate simply takes fewer of
 * the last chunks (work stealing at sample granularity); placed by cost,
 * a device takes no more than it finishes before the others would finish
 * the whole remainder without it (one sample of a slow device can outlast
 * the batch). Devices can share resources (PoCL runs on the CPU's
 * cores), which per-device costs measured side by side cannot see: so,
 * placed by cost over several devices, the dispatcher also times whole
 * batches per shape with the devices together and with the best device
 * alone (one probe batch), keeps whichever was faster per sample, and
 * re-measures the other every 64 batches (not saved in the JSON). With
 * config.work_stealing false the batch is cut into one contiguous range
 * per device by the shares instead. Overrides, in this order:
 * pf_dispatch_pin (everything on one device), pf_dispatch_set_share (a
 * fixed weight for a device, replacing its measured speed; 0 = never use
 * it). A device whose cost is more than config.drop_ratio times the best
 * device's is dropped (not given samples) and its stats say why; a pin or
 * share override brings it back. A device that fails during a batch
 * (an error from a copy or the preprocess) is taken out of that batch and
 * its failed chunk is re-run on the other devices; the failure is counted
 * and named in its stats, and the batch still succeeds (it fails only
 * when every device failed, with the last device's error).
 *
 * Op classes and rules: the fused chain is two classes of ops,
 * "geometry" (crop, resize / resize-then-crop window, flips, affine warp,
 * letterbox pad: the u8 resampled image at the output size) and
 * "pointwise" (colour jitter, grayscale, gamma, the RB swap, gray
 * output, scale / mean / std, dtype, layout). pf_dispatch_set_rule /
 * pf_dispatch_set_rules place a class on a device, overriding the
 * measured choice:
 *  - both classes ruled, to different devices: every sample is split.
 *    Stage 1 (a plan of the desc with u8 HWC 3-channel output, no
 *    colour work, the desc's swap_rb and pad; 1-channel sources a
 *    1-channel plan, their canvas stays gray as in the fused chain) runs
 *    on the geometry device; its u8 images (out_width x out_height x 3
 *    bytes per sample, x 1 for a 1-channel source) go through host memory (downloaded / uploaded by GPU devices: in
 *    their transfer bytes, and in pf_dispatch_stats.moved_bytes) to the
 *    pointwise device, which runs stage 2 (a plan whose geometry is the
 *    identity, with the samples' colour params) into dst. The two stages
 *    run pipelined in chunks (stage 2 of a chunk while stage 1 does the
 *    next). The bytes are pf_preprocess_run's (tests/unit/
 *    test_hetero_split.c over every flavour, interpolation, antialias,
 *    letterbox, affine, jitter, dtype, layout and channel count;
 *    tests/opencl/test_hetero_rules.c across cpu and opencl:0). A batch
 *    that cannot be split exactly runs whole on the geometry device and
 *    its reason says "not split: ...": a letterbox batch with colour ops
 *    (the fused chain does not colour-adjust the pad; the split chain
 *    would), a letterbox desc with 1-channel output (gray of a 3-channel
 *    pad is not always the pad value). The reason of each ruled device reads "rule: geometry ->
 *    opencl:0 (split chain, 150528 B/sample moved)". A split batch does
 *    not update the cost model (its stages are not the chain). If a
 *    stage fails on a device, the whole batch is re-run, chain whole, on
 *    the other ruled device (else any healthy one) and the failure is in
 *    the stats.
 *  - one class ruled, or both to the same device: the chain stays whole
 *    on that device (a pin of the chain: "rule: geometry -> cpu (chain
 *    whole)").
 * Precedence: pf_dispatch_pin > rules > pf_dispatch_set_share > the
 * measured placement. A pin runs everything on its device whatever the
 * rules; rules replace the share overrides and the cost model while set;
 * pf_dispatch_pin(d, NULL) clears the pin and the shares, not the rules
 * (pf_dispatch_set_rules(d, NULL) does).
 *
 * The measured split (config.measure_split, off by default): without
 * rules, pin or shares, the dispatcher also times, per shape, whole
 * batches run split over the two devices of lowest cost (geometry on the
 * cheaper, then the reverse: one probe batch each, after the shape's
 * first two whole-chain batches and its together-vs-alone probe)
 * against its whole-chain batches (the fastest of their placements; a
 * slow batch raises that time by the EWMA, a fast one lowers it at
 * once), transfers and contention included, keeps the faster, and
 * re-measures the other every 64 batches (not saved in the JSON). The
 * measurements are as good as the batches they time: on the 2-core
 * machine a CPU-alone batch right after a PoCL one can run 10x slow
 * (PoCL's threads still hold the cores), and then the split, slower in
 * steady state, can be measured faster. The reasons say which:
 * "measured split: geometry here, pointwise on cpu (0.0310 ms/sample,
 * whole 1.2000)", or, on a
 * whole-chain batch, "...; split chain measured 0.9000 ms/sample, whole
 * 0.0800". Off by default because each probe is a batch at the split's
 * speed: where it loses (PoCL next to the CPU it shares: 10x slower,
 * docs/performance.md) one probe per 64 batches costs ~15% of the
 * throughput.
 *
 * Not done: splitting a batch's samples across more than the two
 * devices while split (a split batch uses exactly two); finer op classes
 * than the two (e.g. one op of the colour chain on a third device);
 * device source images (the sources are host images).
 *
 * Threads: pf_dispatch_run runs the first device's chunks on the calling
 * thread and one thread per other device for the batch. One
 * pf_dispatch_run per dispatcher at a time (it owns the per-device plans
 * and streams), and the overrides and cost functions only between runs;
 * the stats getters on any thread, also during a run (they give the stats
 * as of the last finished batch: a metrics scraper); different
 * dispatchers are independent.
 */
#ifndef PIXFLOW_DISPATCH_H
#define PIXFLOW_DISPATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "pixflow/augment.h"
#include "pixflow/core.h"
#include "pixflow/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pf_dispatch pf_dispatch;

typedef struct pf_dispatch_config {
    const char *devices;     /* "cpu,opencl:0", "auto" (default "auto") */
    int32_t cpu_threads;     /* threads of the CPU device's stream; 0 (default) = one per core */
    double ewma_alpha;       /* weight of a new measurement, (0, 1]; default 0.3 */
    double drop_ratio;       /* drop a device costing more than this x the best; > 1, default 20 */
    bool work_stealing;      /* default true; false: one contiguous range per device */
    bool measure_split;      /* default false: also time the chain split over the two cheapest
                                devices against the whole chain and keep the faster ("Op classes
                                and rules": the measured split) */
} pf_dispatch_config;

PF_API pf_dispatch_config pf_dispatch_config_defaults(void);

/* Opens every listed device (a device that does not open is an error
 * naming it, except under "auto", which skips it). */
PF_API pf_status pf_dispatch_open(const pf_dispatch_config *config, pf_dispatch **out);
PF_API void pf_dispatch_close(pf_dispatch *d);

/* Number of devices and the name of device i ("cpu", "opencl:0"). */
PF_API int pf_dispatch_device_count(const pf_dispatch *d);
PF_API const char *pf_dispatch_device_name(const pf_dispatch *d, int i);

/* Runs the fused preprocess of `desc` for samples 0..count-1 (arguments
 * as pf_preprocess_run's; dst a host tensor or one on a device of the
 * dispatcher, n >= count). Every
 * argument is checked before any device starts (the first device's plan
 * validates the batch). */
PF_API pf_status pf_dispatch_run(pf_dispatch *d, const pf_preprocess_desc *desc, int count,
                                 const pf_image src[], const pf_aug_params params[], pf_tensor *dst,
                                 pf_letterbox_info info[]);

/* Everything on device `name` (one of the dispatcher's); NULL clears the
 * pin and every share override. */
PF_API pf_status pf_dispatch_pin(pf_dispatch *d, const char *name);
/* A fixed placement weight for device `name` (>= 0, finite; the shares
 * are the weights over their sum), replacing its measured speed; a
 * negative weight removes the override. */
PF_API pf_status pf_dispatch_set_share(pf_dispatch *d, const char *name, double weight);

/* Places op class `op_class` ("geometry" or "pointwise", see "Op
 * classes and rules" above) on device `device` (one of the
 * dispatcher's); device NULL removes the class's rule. A bad class or an
 * unknown device is PF_ERR_INVALID_ARGUMENT naming the argument and its
 * value. */
PF_API pf_status pf_dispatch_set_rule(pf_dispatch *d, const char *op_class, const char *device);
/* All rules at once from "class=device[,class=device]" (e.g.
 * "geometry=opencl:0,pointwise=cpu"; spaces around tokens allowed); the
 * classes not named lose their rule; NULL or "" removes every rule. A
 * malformed token, an unknown class or device, or a class named twice is
 * PF_ERR_INVALID_ARGUMENT quoting the token; nothing changes then. */
PF_API pf_status pf_dispatch_set_rules(pf_dispatch *d, const char *rules);
/* The rules in set_rules' syntax ("" when none) into out (out_len bytes,
 * truncated to fit). */
PF_API pf_status pf_dispatch_rules_get(const pf_dispatch *d, char *out, size_t out_len);

typedef struct pf_dispatch_device_stats {
    char name[32];
    uint64_t samples;        /* samples run, all batches */
    uint64_t batches;        /* batches it ran samples of */
    uint64_t chunks;
    uint64_t failures;       /* chunks that failed (their samples re-ran elsewhere) */
    double busy_ms;          /* wall time running its chunks (copies included) */
    double utilization;      /* busy_ms over the wall time of all batches, 0..1 */
    uint64_t upload_bytes, download_bytes;
    double cost_ms;          /* the model's cost per sample for the last batch's shape (0: none) */
    uint64_t last_samples;   /* samples of the last batch */
    double last_share;       /* last_samples over the last batch's count */
    bool dropped;            /* given no samples by the cost model */
    char reason[192];        /* why it got its last share: "calibrating (...)", "cost 1.200
                                ms/sample, share 0.620", "share override (...)", "pinned",
                                "not used: pinned to ..." / "... this batch measures cpu alone",
                                "rule: geometry -> opencl:0 (split chain, 150528 B/sample moved)",
                                "rule: ... not split: ...", "not used: rules ...",
                                "measured split: geometry here, pointwise on cpu (...)",
                                "dropped: cost ... is 40.0x the best ..." / "dropped: batches ran
                                faster on cpu alone ...", then "; failed: ..." after a failure */
} pf_dispatch_device_stats;

typedef struct pf_dispatch_stats {
    uint64_t batches, samples;
    double wall_ms;          /* pf_dispatch_run wall time, all batches */
    double overhead_ms;      /* the dispatcher's own time: placement, chunk grabs, thread start
                                and join, cost updates (not the devices' work, not waiting) */
    double last_wall_ms, last_overhead_ms;
    uint64_t split_batches;  /* batches run split by rules (geometry and pointwise on two devices) */
    uint64_t moved_bytes;    /* u8 intermediate bytes that split batches moved between devices */
} pf_dispatch_stats;

PF_API pf_status pf_dispatch_stats_get(const pf_dispatch *d, pf_dispatch_stats *stats);
PF_API pf_status pf_dispatch_device_stats_get(const pf_dispatch *d, int i,
                                              pf_dispatch_device_stats *stats);

/*
 * The cost model as JSON:
 *   {"format": "pixflow-dispatch-costs", "version": 1,
 *    "entries": [{"device": "cpu", "shape": "224x224x3/f32/chw/linear/aa0/opencv/lb0",
 *                 "ms_per_sample": 1.25, "samples": 4096}, ...]}
 * Loading validates the whole file before changing the model: a missing or
 * ill-typed field, a version other than 1, ms_per_sample not positive and
 * finite, samples negative, a malformed device name or JSON syntax error
 * is PF_ERR_CORRUPT_DATA naming the field ("entries[2].ms_per_sample") or
 * the byte offset; a file that cannot be read or written is PF_ERR_IO.
 * Entries of devices the dispatcher does not have are kept (and saved
 * again), so one file serves machines with different devices. Loaded
 * entries replace the model's entries of the same (device, shape).
 */
PF_API pf_status pf_dispatch_save_costs(const pf_dispatch *d, const char *path);
PF_API pf_status pf_dispatch_load_costs(pf_dispatch *d, const char *path);
/* The same from / to memory: *json is malloc'd (free() it). */
PF_API pf_status pf_dispatch_costs_json(const pf_dispatch *d, char **json);
PF_API pf_status pf_dispatch_costs_parse(pf_dispatch *d, const char *json);

/*
 * Test hooks (for tests of the placement; never needed in production):
 * device `name` sleeps delay_us per sample after each chunk (a slow
 * device; the sleep counts in its measured cost), and, when fail_after >=
 * 0, fails the chunk during which its samples run in the current or next
 * batch pass fail_after (once; then the hook is off): a device failure
 * mid-batch. delay_us 0 and fail_after -1 turn them off.
 */
PF_API pf_status pf_dispatch_test_hooks(pf_dispatch *d, const char *name, int64_t delay_us,
                                        int64_t fail_after);
/* Test hook: device `name` sleeps delay_us per sample of op class
 * `op_class` ("geometry", "pointwise") it runs: a split stage of that
 * class, or the whole chain (which has both classes' delays); a device
 * slow at one class only. 0 turns it off. */
PF_API pf_status pf_dispatch_test_stage_delay(pf_dispatch *d, const char *name, const char *op_class,
                                              int64_t delay_us);

#ifdef __cplusplus
}
#endif

#endif /* PIXFLOW_DISPATCH_H */
