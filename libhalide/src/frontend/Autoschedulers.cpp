// Pipeline::apply_autoscheduler, the registry of autoschedulers by name
// (Pipeline::add_autoscheduler) and load_plugin. Upstream's four
// autoscheduler names are registered from the start and all run the
// built-in heuristic (GreedyAutoscheduler.cpp); their plugin libraries
// need no loading.
#include <dlfcn.h>

#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "Halide/Error.h"
#include "Halide/Pipeline.h"
#include "frontend/GreedyAutoscheduler.h"

namespace Halide {

namespace {

const char *const builtin_names[] = {"Adams2019", "Anderson2021", "Li2018", "Mullapudi2016"};

struct Registry {
    std::mutex mutex;
    std::map<std::string, AutoSchedulerFn> by_name;
    std::set<std::string> builtin; // names a registration may take over
    Registry() {
        for (const char *n : builtin_names) {
            by_name[n] = Internal::greedy_autoschedule;
            builtin.insert(n);
        }
    }
};

Registry &registry() {
    static Registry r;
    return r;
}

// "autoschedule_li2018", "libautoschedule_li2018.so" or a path to it: one
// of upstream's plugins, built in here.
bool is_builtin_plugin(const std::string &lib_name) {
    std::string base = lib_name.substr(lib_name.find_last_of('/') + 1);
    if (base.compare(0, 3, "lib") == 0) {
        base = base.substr(3);
    }
    if (base.size() > 3 && base.compare(base.size() - 3, 3, ".so") == 0) {
        base = base.substr(0, base.size() - 3);
    }
    static const std::set<std::string> plugins = {"autoschedule_adams2019", "autoschedule_anderson2021",
                                                  "autoschedule_li2018", "autoschedule_mullapudi2016"};
    return plugins.count(base) > 0;
}

} // namespace

void Pipeline::add_autoscheduler(const std::string &autoscheduler_name, const AutoSchedulerFn &autoscheduler) {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    user_assert(!r.by_name.count(autoscheduler_name) || r.builtin.count(autoscheduler_name))
        << "'" << autoscheduler_name << "' is already registered as an autoscheduler.";
    r.by_name[autoscheduler_name] = autoscheduler;
    r.builtin.erase(autoscheduler_name);
}

AutoSchedulerResults Pipeline::apply_autoscheduler(const Target &target,
                                                   const AutoschedulerParams &autoscheduler_params) const {
    user_assert(defined()) << "Can't autoschedule an empty Pipeline";
    user_assert(!autoscheduler_params.name.empty()) << "apply_autoscheduler: AutoschedulerParams has an empty name; "
                                                       "name an autoscheduler such as Li2018";
    AutoSchedulerFn fn;
    {
        Registry &r = registry();
        std::lock_guard<std::mutex> lock(r.mutex);
        auto it = r.by_name.find(autoscheduler_params.name);
        if (it == r.by_name.end()) {
            std::ostringstream known;
            for (const auto &e : r.by_name) {
                known << " " << e.first;
            }
            user_error << "Unknown autoscheduler name '" << autoscheduler_params.name
                       << "'; known names are:" << known.str();
        }
        fn = it->second;
    }
    AutoSchedulerResults results;
    fn(*this, target, autoscheduler_params, &results);
    results.target = target;
    results.autoscheduler_params = autoscheduler_params;
    return results;
}

void load_plugin(const std::string &lib_name) {
    if (is_builtin_plugin(lib_name)) {
        return;
    }
    // As upstream: a bare name means lib<name>.so on the library path.
    std::string path = lib_name;
    if (path.find('/') == std::string::npos && (path.size() < 3 || path.compare(path.size() - 3, 3, ".so") != 0)) {
        path = "lib" + path + ".so";
    }
    void *handle = dlopen(path.c_str(), RTLD_LAZY | RTLD_GLOBAL);
    if (!handle) {
        const char *why = dlerror();
        user_error << "Failed to load: " << path << ": " << (why ? why : "unknown error");
    }
}

} // namespace Halide
