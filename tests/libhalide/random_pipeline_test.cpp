// Differential testing: random pipelines with random schedules. Each
// scheduled result must equal the unscheduled one and a reference
// evaluation written here (a tiny interpreter over the same expression
// trees). The seed is fixed so CI is reproducible (new seeds are explored by
// tests/differential and `./run fuzz`); HALIDE_RANDOM_PIPELINES and
// HALIDE_TEST_SEED change the count and the seed.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <random>
#include <sstream>

#include "Halide.h"

using namespace Halide;

namespace {

// An int32 expression over the previous stage (or the input) at small
// offsets, with the language's semantics.
struct Node {
    enum Op { Read, Const, Add, Sub, Mul, Div, Mod, Min, Max, Select } op;
    int dx = 0, dy = 0, value = 0;
    std::unique_ptr<Node> a, b, c;
};

// Whether the reference's arithmetic overflowed int32 since last cleared.
// Signed 32-bit overflow is undefined in Halide, as upstream (the simplifier
// may assume it does not happen: a * -4 < b where a, b >= 13), so a value
// whose evaluation overflowed has no expected result and is not compared.
bool g_overflowed = false;

int32_t wrap(int64_t v) {
    g_overflowed = g_overflowed || v < INT32_MIN || v > INT32_MAX;
    return (int32_t)(uint32_t)(uint64_t)v;
}

int32_t euclid_div(int32_t a, int32_t b) {
    if (b == 0) {
        return 0;
    }
    if (a == INT32_MIN && b == -1) {
        return a;
    }
    int32_t q = a / b, r = a % b;
    if (r < 0) {
        q = b > 0 ? q - 1 : q + 1;
    }
    return q;
}

int32_t euclid_mod(int32_t a, int32_t b) {
    if (b == 0 || b == -1) {
        return 0;
    }
    int32_t r = a % b;
    if (r < 0) {
        r = b > 0 ? r + b : r - b;
    }
    return r;
}

std::unique_ptr<Node> random_tree(std::mt19937 &rng, int depth) {
    auto n = std::make_unique<Node>();
    int pick = depth <= 0 ? (int)(rng() % 2) : (int)(rng() % 10);
    n->op = (Node::Op)pick;
    if (n->op == Node::Read) {
        n->dx = (int)(rng() % 5) - 2;
        n->dy = (int)(rng() % 5) - 2;
    } else if (n->op == Node::Const) {
        n->value = (int)(rng() % 41) - 20;
    } else {
        n->a = random_tree(rng, depth - 1);
        n->b = random_tree(rng, depth - 1);
        if (n->op == Node::Select) {
            n->c = random_tree(rng, depth - 1);
        }
    }
    return n;
}

Expr to_expr(const Node &n, const std::function<Expr(int, int)> &read) {
    switch (n.op) {
    case Node::Read: return read(n.dx, n.dy);
    case Node::Const: return Expr(n.value);
    case Node::Add: return to_expr(*n.a, read) + to_expr(*n.b, read);
    case Node::Sub: return to_expr(*n.a, read) - to_expr(*n.b, read);
    case Node::Mul: return to_expr(*n.a, read) * to_expr(*n.b, read);
    case Node::Div: return to_expr(*n.a, read) / to_expr(*n.b, read);
    case Node::Mod: return to_expr(*n.a, read) % to_expr(*n.b, read);
    case Node::Min: return min(to_expr(*n.a, read), to_expr(*n.b, read));
    case Node::Max: return max(to_expr(*n.a, read), to_expr(*n.b, read));
    case Node::Select:
        return select(to_expr(*n.a, read) < to_expr(*n.b, read), to_expr(*n.c, read), to_expr(*n.b, read));
    }
    return Expr();
}

int32_t eval(const Node &n, const std::function<int32_t(int, int)> &read) {
    switch (n.op) {
    case Node::Read: return read(n.dx, n.dy);
    case Node::Const: return n.value;
    case Node::Add: return wrap((int64_t)eval(*n.a, read) + eval(*n.b, read));
    case Node::Sub: return wrap((int64_t)eval(*n.a, read) - eval(*n.b, read));
    case Node::Mul: return wrap((int64_t)eval(*n.a, read) * eval(*n.b, read));
    case Node::Div: return euclid_div(eval(*n.a, read), eval(*n.b, read));
    case Node::Mod: return euclid_mod(eval(*n.a, read), eval(*n.b, read));
    case Node::Min: return std::min(eval(*n.a, read), eval(*n.b, read));
    case Node::Max: return std::max(eval(*n.a, read), eval(*n.b, read));
    case Node::Select: {
        int32_t a = eval(*n.a, read), b = eval(*n.b, read), c = eval(*n.c, read);
        return a < b ? c : b;
    }
    }
    return 0;
}

struct RandomPipeline {
    std::vector<std::unique_ptr<Node>> stages; // stage 0 reads the input
    int width = 0, height = 0;
};

// Where a realized producer's storage lives: the heap (as before), the
// stack (store_in), or hoisted out of out's loops (hoist_storage_root; not
// out of a parallel loop). Drawn from a generator of its own, so each seed
// keeps the pipelines and schedules it had.
void random_storage(Func &f, bool at_loop, std::ostringstream &log) {
    static std::mt19937 storage_rng(13);
    switch (storage_rng() % 4) {
    case 0:
        f.store_in(MemoryType::Stack);
        log << "store_in(Stack) ";
        break;
    case 1:
        if (at_loop && log.str().find("parallel") == std::string::npos) {
            f.hoist_storage_root();
            log << "hoist_storage_root ";
        }
        break;
    default: break;
    }
}

// Applies a random schedule to the stages; returns a description for logs.
std::string random_schedule(std::mt19937 &rng, std::vector<Func> &funcs, const Var &x, const Var &y) {
    std::ostringstream log;
    Func &out = funcs.back();
    Var xo("xo"), xi("xi"), yo("yo"), yi("yi"), t("t");
    std::vector<Var> out_loops = {x, y};
    switch (rng() % 7) {
    case 0: break;
    case 1:
        out.split(x, xo, xi, (int)(rng() % 7) + 1);
        log << "split(x) ";
        out_loops = {xi, xo, y};
        break;
    case 2: {
        int fx = (int)(rng() % 6) + 2, fy = (int)(rng() % 4) + 2;
        out.tile(x, y, xo, yo, xi, yi, fx, fy, rng() % 2 ? TailStrategy::GuardWithIf : TailStrategy::Auto);
        log << "tile(" << fx << "," << fy << ") ";
        out_loops = {xi, yi, xo, yo};
        break;
    }
    case 3:
        out.vectorize(x, (int)(rng() % 3) * 4 + 4);
        log << "vectorize(x) ";
        out_loops = {y};
        break;
    case 4:
        out.split(x, xo, xi, 4).unroll(xi);
        log << "unroll(xi) ";
        out_loops = {xi, xo, y};
        break;
    case 5:
        out.reorder(y, x);
        log << "reorder(y,x) ";
        out_loops = {y, x};
        break;
    case 6:
        out.fuse(x, y, t).parallel(t);
        log << "fuse+parallel ";
        out_loops = {t};
        break;
    }
    if (rng() % 2 && out_loops.back().name() == y.name()) {
        out.parallel(y);
        log << "parallel(y) ";
    }
    // Producers, last first. A producer may be computed at one of out's loops
    // only if its nearest non-inline consumer is out or is computed at that
    // same loop; otherwise it would be consumed outside its realization.
    std::string consumer_at = "out"; // "out", "root" or the loop's name
    for (size_t i = funcs.size() - 1; i-- > 0;) {
        int choice = (int)(rng() % 4);
        if (choice == 2 && consumer_at == "root") {
            choice = 1;
        }
        switch (choice) {
        case 0: log << funcs[i].name() << ":inline "; break;
        case 1:
            funcs[i].compute_root();
            if (rng() % 2) {
                funcs[i].vectorize(x, 4);
            }
            log << funcs[i].name() << ":root ";
            random_storage(funcs[i], false, log);
            consumer_at = "root";
            break;
        case 2: {
            Var v = out_loops[rng() % out_loops.size()];
            if (consumer_at != "out") {
                v = Var(consumer_at);
            }
            funcs[i].compute_at(out, v);
            log << funcs[i].name() << ":at(" << v.name() << ") ";
            // Storage at the root, shared by every iteration (not under a
            // parallel loop, where iterations would share it concurrently).
            if (rng() % 3 == 0 && log.str().find("parallel") == std::string::npos) {
                funcs[i].store_root();
                log << "store_root ";
            } else {
                random_storage(funcs[i], true, log);
            }
            consumer_at = v.name();
            break;
        }
        case 3:
            funcs[i].compute_root().split(y, yo, yi, (int)(rng() % 3) + 2).parallel(yo);
            log << funcs[i].name() << ":root+split(y)+parallel ";
            consumer_at = "root";
            break;
        }
    }
    return log.str();
}

} // namespace

TEST(RandomPipelines, ScheduledEqualsUnscheduledAndReference) {
    const char *count_env = std::getenv("HALIDE_RANDOM_PIPELINES");
    const int pipelines = count_env ? std::atoi(count_env) : 400;
    const int schedules_per_pipeline = 4;
    const char *seed_env = std::getenv("HALIDE_TEST_SEED");
    constexpr uint32_t kDefaultSeed = 20261205;
    const uint32_t seed = seed_env ? (uint32_t)std::strtoul(seed_env, nullptr, 10) : kDefaultSeed;
    std::printf("random pipelines: seed %u, %d pipelines x %d schedules\n", seed, pipelines, schedules_per_pipeline);
    std::mt19937 rng(seed);

    int cases = 0;
    long compared = 0, skipped = 0; // points; skipped: the reference overflowed int32
    for (int p = 0; p < pipelines; p++) {
        RandomPipeline rp;
        int stages = (int)(rng() % 3) + 1;
        for (int s = 0; s < stages; s++) {
            rp.stages.push_back(random_tree(rng, (int)(rng() % 3) + 1));
        }
        rp.width = (int)(rng() % 24) + 12;
        rp.height = (int)(rng() % 12) + 6;
        const int pad = 2 * stages + 1 + 8; // producers round their regions up to split factors

        Runtime::Buffer<int32_t> in(rp.width + 2 * pad, rp.height + 2 * pad);
        in.set_min(-pad, -pad);
        in.for_each_value([&](int32_t &v) { v = (int32_t)(rng() % 2001) - 1000; });

        // Reference: evaluate stage by stage on ever-smaller regions.
        std::function<int32_t(int, int, int)> ref = [&](int s, int i, int j) -> int32_t {
            auto read = [&](int dx, int dy) { return s == 0 ? in(i + dx, j + dy) : ref(s - 1, i + dx, j + dy); };
            return eval(*rp.stages[s], read);
        };

        for (int k = 0; k <= schedules_per_pipeline; k++) {
            // k == 0: no schedule (everything inlined).
            ImageParam input(Int(32), 2, "input");
            input.set(Buffer<int32_t>(in));
            Var x("x"), y("y");
            std::vector<Func> funcs;
            for (int s = 0; s < stages; s++) {
                Func f("stage" + std::to_string(s));
                auto read = [&](int dx, int dy) -> Expr {
                    return s == 0 ? input(x + dx, y + dy) : funcs[s - 1](x + dx, y + dy);
                };
                f(x, y) = to_expr(*rp.stages[s], read);
                funcs.push_back(f);
            }
            std::string schedule = k == 0 ? "none" : random_schedule(rng, funcs, x, y);
            Buffer<int32_t> out;
            try {
                out = funcs.back().realize({rp.width, rp.height});
            } catch (const std::exception &e) {
                FAIL() << "seed " << seed << " pipeline " << p << " schedule [" << schedule << "]: " << e.what() << "\n"
                       << funcs.back().lowered_stmt();
            }
            for (int j = 0; j < rp.height; j++) {
                for (int i = 0; i < rp.width; i++) {
                    g_overflowed = false;
                    int32_t expected = ref(stages - 1, i, j);
                    if (g_overflowed) {
                        skipped++;
                        continue;
                    }
                    compared++;
                    ASSERT_EQ(out(i, j), expected) << "seed " << seed << " pipeline " << p << " schedule [" << schedule
                                                   << "] at " << i << "," << j;
                }
            }
            cases++;
        }
    }
    std::printf("%d random cases passed (%ld points compared, %ld skipped as int32 overflow)\n", cases, compared,
                skipped);
    EXPECT_GT(compared, 20 * skipped) << "most points must have a defined result";
}
