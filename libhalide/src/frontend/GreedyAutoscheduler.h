// The autoscheduler built into this compiler (GreedyAutoscheduler.cpp),
// registered under upstream's autoscheduler names (Autoschedulers.cpp).
#ifndef HALIDE_FRONTEND_GREEDY_AUTOSCHEDULER_H
#define HALIDE_FRONTEND_GREEDY_AUTOSCHEDULER_H

#include "Halide/Pipeline.h"

namespace Halide {
namespace Internal {

void greedy_autoschedule(const Pipeline &p, const Target &target, const AutoschedulerParams &params,
                         AutoSchedulerResults *outputs);

} // namespace Internal
} // namespace Halide

#endif
