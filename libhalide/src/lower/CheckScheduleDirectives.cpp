// See Passes.h: checks of schedule directives that change nothing in the
// loop nest (Stage::unscheduled, Func::ring_buffer).
#include "Halide/Error.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {

namespace {

// Whether f's storage is hoisted to the level it is stored at (or not hoisted).
bool hoisted_to_store_level(const FunctionContents &f) {
    if (f.hoist == ComputeLevel::Inlined) {
        return true;
    }
    ComputeLevel store = f.store == ComputeLevel::Inlined ? f.compute : f.store;
    if (f.hoist != store) {
        return false;
    }
    if (store != ComputeLevel::At) {
        return true;
    }
    const std::string &func = f.store == ComputeLevel::Inlined ? f.compute_at_func : f.store_at_func;
    const std::string &var = f.store == ComputeLevel::Inlined ? f.compute_at_var : f.store_at_var;
    return f.hoist_at_func == func && f.hoist_at_var == var;
}

} // namespace

void check_schedule_directives(const Environment &env) {
    for (const auto &[name, f] : env) {
        const FunctionContents &user = f->original ? *f->original : *f;
        bool any_scheduled = user.scheduled;
        for (const UpdateDefinition &u : user.updates) {
            any_scheduled = any_scheduled || u.scheduled;
        }
        for (size_t i = 0; any_scheduled && i < user.updates.size(); i++) {
            if (!user.updates[i].scheduled) {
                user_warning << "Update definition " << i << " of function " << user.name
                             << " has not been scheduled, even though some other definitions have been. You may "
                                "have forgotten to schedule it. If this was intentional, call "
                             << user.name << ".update(" << i << ").unscheduled() to suppress this warning.";
            }
        }
        user_assert(!f->ring_buffer.defined() || !hoisted_to_store_level(*f))
            << "Func \"" << user.name
            << "\" is scheduled with ring_buffer(), but has matching store_at and hoist_storage levels. Add an "
               "explicit hoist_storage directive to the schedule to fix the issue.";
    }
}

} // namespace Internal
} // namespace Halide
