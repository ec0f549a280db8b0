// The clocks and the timing loop of the benchmarks built against ours,
// Halide 14 and Halide 21 (benchmarks/common/harness.py adds this folder to
// the include path). Plain C++: no Halide API, so it compiles unchanged
// against all three.

#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include <time.h>

namespace bench {

inline double now_s() {
    using clock = std::chrono::steady_clock;
    return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

// CPU time of the whole process (all threads): on a machine shared with
// other jobs, the time this process actually ran, which wall time is not.
inline double cpu_s() {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

struct Best {
    double wall_s = 1e30, cpu_s = 1e30;
    int runs = 0;
};

// The best wall and CPU time of up to `runs` calls of `f` (at least 3 when
// `runs` allows, then stopping once `budget_s` seconds have passed). The
// caller warms up first.
template <typename F> Best time_runs(F &&f, int runs, double budget_s) {
    Best b;
    double start = now_s();
    while (b.runs < runs && !(b.runs >= 3 && now_s() - start > budget_s)) {
        double w = now_s(), c = cpu_s();
        f();
        b.cpu_s = std::min(b.cpu_s, bench::cpu_s() - c);
        b.wall_s = std::min(b.wall_s, now_s() - w);
        b.runs++;
    }
    return b;
}

// Writes `bytes` bytes at `data` to `path`; false (and a message) when it cannot.
inline bool write_file(const std::string &path, const void *data, size_t bytes) {
    FILE *f = std::fopen(path.c_str(), "wb");
    if (!f) {
        std::fprintf(stderr, "cannot write %s\n", path.c_str());
        return false;
    }
    bool ok = std::fwrite(data, 1, bytes, f) == bytes;
    std::fclose(f);
    return ok;
}

// Options of the form `--name value`, each name one of `known`.
class Options {
public:
    // False (and a usage line on stderr) on an unknown name or a missing value.
    bool parse(int argc, char **argv, const std::vector<std::string> &known) {
        for (int i = 1; i < argc; i++) {
            std::string arg = argv[i];
            bool is_known =
                arg.rfind("--", 0) == 0 && std::find(known.begin(), known.end(), arg.substr(2)) != known.end();
            if (!is_known || i + 1 >= argc) {
                std::string usage;
                for (const std::string &k : known) {
                    usage += " [--" + k + " VALUE]";
                }
                std::fprintf(stderr, "usage: %s%s\n", argv[0], usage.c_str());
                return false;
            }
            values_[arg.substr(2)] = argv[++i];
        }
        return true;
    }
    std::string str(const std::string &name, const std::string &fallback = "") const {
        auto it = values_.find(name);
        return it == values_.end() ? fallback : it->second;
    }
    int integer(const std::string &name, int fallback) const {
        auto it = values_.find(name);
        return it == values_.end() ? fallback : std::atoi(it->second.c_str());
    }
    double real(const std::string &name, double fallback) const {
        auto it = values_.find(name);
        return it == values_.end() ? fallback : std::atof(it->second.c_str());
    }

private:
    std::map<std::string, std::string> values_;
};

// The thread count the runtime was given (HL_NUM_THREADS), for the JSON line.
inline const char *threads_env() {
    const char *t = std::getenv("HL_NUM_THREADS");
    return t ? t : "default";
}

} // namespace bench
