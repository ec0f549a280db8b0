// Func::trace_loads/trace_stores/trace_realizations: flags that lowering
// (lower/AddTracing.cpp) turns into printed trace events.
#include "Halide/Func.h"
#include "lower/Function.h"

namespace Halide {

Func &Func::trace_loads() {
    f_->trace_loads = true;
    mark_changed(*f_);
    return *this;
}

Func &Func::trace_stores() {
    f_->trace_stores = true;
    mark_changed(*f_);
    return *this;
}

Func &Func::trace_realizations() {
    f_->trace_realizations = true;
    mark_changed(*f_);
    return *this;
}

} // namespace Halide
