/* pixflow umbrella header: include this one. */
#ifndef PIXFLOW_H
#define PIXFLOW_H

#include "pixflow/core.h"
#include "pixflow/runtime.h"
#include "pixflow/ops.h"
#include "pixflow/augment.h"
#include "pixflow/video.h"
#include "pixflow/infer.h"
#include "pixflow/pipeline.h"
#include "pixflow/pack.h"
#include "pixflow/codec.h"
#include "pixflow/dispatch.h"
#include "pixflow/post.h"
#include "pixflow/metrics.h"

#endif /* PIXFLOW_H */
