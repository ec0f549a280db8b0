// Func::trace_loads/trace_stores/trace_realizations/add_trace_tag (and
// ImageParam::trace_loads/add_trace_tag): flags that lowering
// (lower/AddTracing.cpp) turns into halide_trace events; and debug_to_file
// (lower/DebugToFile.cpp).
#include "Halide/Error.h"
#include "Halide/Func.h"
#include "Halide/Param.h"
#include "Halide/Pipeline.h"
#include "lower/Function.h"

namespace Halide {

void Func::debug_to_file(const std::string &filename) {
    user_assert(!filename.empty()) << "debug_to_file of Func '" << name() << "': the file name is empty";
    f_->debug_file = filename;
    mark_changed(*f_);
}

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

Func &Func::add_trace_tag(const std::string &trace_tag) {
    f_->trace_tags.push_back(trace_tag);
    mark_changed(*f_);
    return *this;
}

Func &Func::no_profiling() {
    f_->no_profiling = true;
    return *this;
}

void ImageParam::trace_loads() {
    check_defined();
    contents_->trace_loads = true;
    Internal::mark_everything_changed(); // its consumers are not known here
}

ImageParam &ImageParam::add_trace_tag(const std::string &trace_tag) {
    check_defined();
    contents_->trace_tags.push_back(trace_tag);
    Internal::mark_everything_changed();
    return *this;
}

JITHandlers &Func::jit_handlers() {
    return pipeline().jit_handlers();
}

} // namespace Halide
