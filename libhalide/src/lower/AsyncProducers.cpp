// See Passes.h: async producers as tasks that run next to their consumers.
//
// Works on flattened IR (a Func's storage is the Allocate of its name; its
// computation is the statements that Store to it). For each Func scheduled
// async(), the site is the block where its computing statements sit: either
// directly inside its storage ("case a", e.g. compute_root, or compute_at ==
// store_at), or one serial loop L inside its storage ("case b", e.g.
// compute_at(c, yi).store_at(c, yo)). The block's statements become tasks:
//
//   - one task per run of consecutive statements computing an async Func of
//     the site ("producer tasks");
//   - one task with every other statement, in order ("main task"); in case a
//     the statements before the first producer run before the fork instead.
//
// In case b every task is a serial loop over L's range, one iteration at a
// time; in case a a loop of one iteration. Each pair of tasks whose buffers
// conflict (one writes what the other reads or writes) gets semaphores that
// keep the sequential order between their iterations:
//
//   - the earlier task in the block, iteration k, before the later one's
//     iteration k (a semaphore starting at 0);
//   - in case b, the later task's iteration k before the earlier one's
//     iteration k + R (a semaphore starting at R). R is 1 (no overlap) unless
//     the only shared buffers are storage folded for async (StorageFolding
//     sized the fold for two iterations at once): then R = 2, and producer
//     iteration k + 1 runs while the consumer runs iteration k. With
//     ring_buffer(n) (storage hoisted out of L), g's storage holds n copies,
//     iteration k using copy k % n, and R = n.
//
// A task acquires all its semaphores before each iteration and releases the
// ones it feeds after it. The fork is encoded for codegen as
//
//   let g.async_semaphore.0 = make_semaphore(init) ...
//   async_fork(n); for (L, min, extent) { task_acquires(sems...); body; release... } x n
//
// and becomes halide_do_parallel_tasks in CodeGen_LLVM_Async.cpp.
#include <algorithm>
#include <map>
#include <set>

#include "Halide/Error.h"
#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "Halide/IRVisitor.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

// The Func whose storage `buffer` is: itself, or for a Tuple-valued Func
// `f` the buffers f.0, f.1, ...
std::string func_of(const std::string &buffer, const Environment &env) {
    if (env.count(buffer)) {
        return buffer;
    }
    size_t dot = buffer.rfind('.');
    if (dot != std::string::npos && dot + 1 < buffer.size() &&
        buffer.find_first_not_of("0123456789", dot + 1) == std::string::npos) {
        auto f = env.find(buffer.substr(0, dot));
        if (f != env.end() && f->second->values.size() > 1) {
            return f->first;
        }
    }
    return buffer;
}

// The Funcs (or other buffers) a statement reads and writes (extern
// stages' buffer arguments count as both).
struct Uses {
    std::set<std::string> reads, writes;
};

class BufferUses : public IRVisitor, public Uses {
public:
    explicit BufferUses(const Environment &env) : env_(env) {}

    using IRVisitor::visit;
    void visit(const Load *op) override {
        reads.insert(func_of(op->name, env_));
        IRVisitor::visit(op);
    }
    void visit(const Store *op) override {
        writes.insert(func_of(op->name, env_));
        IRVisitor::visit(op);
    }
    void visit(const Variable *op) override {
        const std::string suffix = ".buffer";
        if (op->type.is_handle() && op->name.size() > suffix.size() &&
            op->name.compare(op->name.size() - suffix.size(), suffix.size(), suffix) == 0) {
            std::string base = func_of(op->name.substr(0, op->name.size() - suffix.size()), env_);
            reads.insert(base);
            writes.insert(base);
        }
    }

private:
    const Environment &env_;
};

std::vector<Stmt> block_items(const Stmt &s) {
    std::vector<Stmt> items;
    if (const Block *b = s.as<Block>()) {
        std::vector<Stmt> first = block_items(b->first), rest = block_items(b->rest);
        items.insert(items.end(), first.begin(), first.end());
        items.insert(items.end(), rest.begin(), rest.end());
    } else if (s.defined()) {
        items.push_back(s);
    }
    return items;
}

Stmt make_block(const std::vector<Stmt> &items) {
    return items.empty() ? Stmt() : Block::make(items);
}

bool intersects(const std::set<std::string> &a, const std::set<std::string> &b, std::set<std::string> *common) {
    bool any = false;
    for (const std::string &n : a) {
        if (b.count(n)) {
            any = true;
            if (common) {
                common->insert(n);
            }
        }
    }
    return any;
}

// Loads and stores of g's storage moved by `offset` elements.
class RingIndex : public IRMutator {
public:
    RingIndex(const std::string &g, const Environment &env, Expr offset)
        : g_(g), env_(env), offset_(std::move(offset)) {}
    using IRMutator::visit;
    Expr visit(const Load *op) override {
        Expr e = IRMutator::visit(op);
        if (func_of(op->name, env_) != g_) {
            return e;
        }
        const Load *l = e.as<Load>();
        return Load::make(l->type, l->name, moved(l->index));
    }
    Stmt visit(const Store *op) override {
        Stmt s = IRMutator::visit(op);
        if (func_of(op->name, env_) != g_) {
            return s;
        }
        const Store *st = s.as<Store>();
        return Store::make(st->name, st->value, moved(st->index));
    }

private:
    Expr moved(const Expr &index) const {
        Expr offset = index.type().is_vector() ? Broadcast::make(offset_, index.type().lanes()) : offset_;
        return Add::make(index, offset);
    }
    std::string g_;
    const Environment &env_;
    Expr offset_;
};

struct Task {
    std::vector<Stmt> items;
    std::string produces; // the async Func it computes ("" for the main task)
    Uses uses;
    std::vector<std::string> acquires, releases; // semaphore names
};

class ForkAsync : public IRMutator {
public:
    ForkAsync(const Environment &env, const std::set<std::string> &run_ahead) : env_(env), run_ahead_(run_ahead) {}
    using IRMutator::visit;

    Stmt visit(const Allocate *op) override {
        std::string g = func_of(op->name, env_);
        Stmt s = self_stmt(op);
        if (is_async(g) && !handled_.count(g)) {
            site_allocs_.clear();
            extents_ = op->extents;
            s = Allocate::make(op->name, op->type, op->memory_type, op->extents, fork_at_site(op->body, g),
                               op->new_expr, op->free_function);
        }
        bool outer = enclosing_.insert(g).second;
        s = IRMutator::visit(s.as<Allocate>());
        if (outer) {
            enclosing_.erase(g);
        }
        auto ring = ring_.find(g);
        if (ring != ring_.end()) {
            // ring_buffer(n): n copies, one per iteration modulo n.
            const Allocate *a = s.as<Allocate>();
            std::vector<Expr> extents = a->extents;
            extents.push_back(Expr(ring->second));
            s = Allocate::make(a->name, a->type, a->memory_type, extents, a->body, a->new_expr, a->free_function);
        }
        return s;
    }

private:
    Uses uses_of(const Stmt &s) const {
        BufferUses u(env_);
        u.include(s);
        return Uses{u.reads, u.writes};
    }

    bool is_async(const std::string &name) const {
        auto f = env_.find(name);
        return f != env_.end() && f->second->async && f->second->compute != ComputeLevel::Inlined;
    }

    // The statement with the fork placed at g's site (through the lets and
    // other Funcs' Allocates that wrap it).
    Stmt fork_at_site(const Stmt &s, const std::string &g) {
        if (const LetStmt *let = s.as<LetStmt>()) {
            return LetStmt::make(let->name, let->value, fork_at_site(let->body, g));
        }
        if (const Allocate *a = s.as<Allocate>()) {
            site_allocs_.insert(func_of(a->name, env_));
            return Allocate::make(a->name, a->type, a->memory_type, a->extents, fork_at_site(a->body, g), a->new_expr,
                                  a->free_function);
        }
        std::vector<Stmt> items = block_items(s);
        if (computed_in(items, g)) {
            return fork_block(items, nullptr, {}, g);
        }
        // Case b: one serial loop inside the storage computes and uses g.
        int loop_index = -1;
        for (int i = 0; i < (int)items.size(); i++) {
            Uses u = uses_of(items[i]);
            if (u.reads.count(g) || u.writes.count(g)) {
                user_assert(loop_index < 0 && items[i].as<For>())
                    << "Func " << g << " is scheduled async(), but it is used in more than one loop inside its "
                    << "storage: this async schedule is not supported (schedule it compute_at the loop it is "
                    << "stored at, or store it one loop outside where it is computed)";
                loop_index = i;
            }
        }
        if (loop_index < 0) {
            return s; // computed and used nowhere (e.g. specialized away)
        }
        const For *loop = items[loop_index].as<For>();
        check_computed_in_between(loop, g);
        user_assert(loop->for_type == ForType::Serial)
            << "Func " << g << " is scheduled async() and stored outside the loop " << loop->name
            << " it is computed in, which is not serial: this async schedule is not supported";
        // The loop body: lets, then the block computing g.
        std::vector<const LetStmt *> lets;
        Stmt inner = loop->body;
        while (const LetStmt *let = inner.as<LetStmt>()) {
            lets.push_back(let);
            inner = let->body;
        }
        std::vector<Stmt> inner_items = block_items(inner);
        user_assert(computed_in(inner_items, g))
            << "Func " << g << " is scheduled async() and computed more than one loop inside "
            << "its storage (inside " << loop->name << "): this async schedule is not supported; "
            << "store it directly outside the loop it is computed at";
        // The fork replaces the loop: each task iterates it.
        items[loop_index] = fork_block(inner_items, loop, lets, g);
        return make_block(items);
    }

    // Whether these statements compute g themselves: some write it, and it
    // is not one loop that both computes and consumes it (g computed
    // inside that loop).
    bool computed_in(const std::vector<Stmt> &items, const std::string &g) const {
        int touching = 0, writing = 0;
        bool single_loop = false;
        for (const Stmt &item : items) {
            Uses u = uses_of(item);
            touching += (u.reads.count(g) || u.writes.count(g)) ? 1 : 0;
            writing += u.writes.count(g) ? 1 : 0;
            single_loop = single_loop || (item.as<For>() && u.reads.count(g) && u.writes.count(g));
        }
        return writing > 0 && !(touching == 1 && single_loop);
    }

    // Funcs g reads that are computed inside `loop` (between g's store and
    // compute levels) must be async and stored outside g's storage, as upstream requires.
    void check_computed_in_between(const For *loop, const std::string &g) {
        class ReadsOf : public IRVisitor {
        public:
            ReadsOf(const std::string &g, const Environment &env) : g_(g), env_(env), uses_(env) {}
            using IRVisitor::visit;
            void visit(const Store *op) override {
                if (func_of(op->name, env_) == g_) {
                    uses_.include(op->value);
                    uses_.include(op->index);
                }
                IRVisitor::visit(op);
            }
            const std::set<std::string> &reads() const { return uses_.reads; }

        private:
            const std::string &g_;
            const Environment &env_;
            BufferUses uses_;
        } reads_of(g, env_);
        reads_of.include(loop->body);
        Uses inside = uses_of(loop->body);
        for (const std::string &f : reads_of.reads()) {
            if (f == g || !inside.writes.count(f) || (is_async(f) && enclosing_.count(f))) {
                continue;
            }
            user_error << "The Func " << f << " is consumed by async Func " << g
                       << " and has a compute_at location in between the store_at location and the compute_at "
                       << "location of " << g << ". This is only legal when " << f
                       << " is both async and has a store_at location outside the store_at location of the "
                       << "consumer.";
        }
    }

    // The tasks of one site. With `loop` (case b) each task iterates the
    // loop; `items` are its body after `lets`, which every task repeats.
    Stmt fork_block(const std::vector<Stmt> &given, const For *loop, const std::vector<const LetStmt *> &lets,
                    const std::string &g) {
        std::vector<Stmt> items = given;
        const IntImm *ring = env_.at(g)->ring_buffer.defined() ? env_.at(g)->ring_buffer.as<IntImm>() : nullptr;
        if (loop && ring && ring->value > 1 && !run_ahead_.count(g)) {
            // ring_buffer(n): iteration k of the loop uses copy k % n of
            // g's storage, so the producer can run n - 1 iterations ahead.
            Expr size = Expr(1);
            for (const Expr &e : extents_) {
                size = Mul::make(size, e);
            }
            Expr copy = Mod::make(Sub::make(Variable::make(Int(32), loop->name), loop->min), Expr((int)ring->value));
            RingIndex ring_index(g, env_, Mul::make(copy, size));
            for (Stmt &item : items) {
                item = ring_index.mutate(item);
            }
            ring_[g] = (int)ring->value;
        }
        std::vector<Task> tasks(1); // tasks[0]: the main task
        std::vector<Stmt> before;
        bool seen_producer = false;
        for (const Stmt &item : items) {
            Uses u = uses_of(item);
            std::string produced;
            for (const std::string &w : u.writes) {
                // (An async Func stored here or outside: not an output.)
                if (is_async(w) && !handled_.count(w) && (w == g || enclosing_.count(w) || site_allocs_.count(w))) {
                    user_assert(produced.empty())
                        << "Funcs " << produced << " and " << w << " are both async() and computed in one statement: "
                        << "this async schedule is not supported";
                    produced = w;
                }
            }
            if (produced.empty()) {
                if (!seen_producer && !loop) {
                    before.push_back(item);
                } else {
                    tasks[0].items.push_back(item);
                }
                continue;
            }
            seen_producer = true;
            if (tasks.back().produces != produced || tasks.size() == 1) {
                tasks.emplace_back();
                tasks.back().produces = produced;
            }
            tasks.back().items.push_back(item);
        }
        internal_assert(tasks.size() > 1) << "async Func " << g << " not found at its site";
        for (Task &t : tasks) {
            t.uses = uses_of(make_block(t.items));
            if (!t.produces.empty()) {
                handled_.insert(t.produces);
            }
        }
        std::vector<std::pair<std::string, int>> semaphores; // name, initial count
        auto add_edge = [&](Task &from, Task &to, int init) {
            std::string name = g + ".async_semaphore." + std::to_string(counter_++);
            semaphores.emplace_back(name, init);
            from.releases.push_back(name);
            to.acquires.push_back(name);
        };
        // A task's statements at positions in `items` before (or after) `at`.
        auto part = [&](const Task &t, int at, bool after) {
            std::vector<Stmt> chosen;
            for (const Stmt &item : t.items) {
                int pos =
                    (int)(std::find_if(items.begin(), items.end(), [&](const Stmt &i) { return i.same_as(item); }) -
                          items.begin());
                if ((pos > at) == after) {
                    chosen.push_back(item);
                }
            }
            return uses_of(make_block(chosen));
        };
        auto first_position = [&](const Task &t) {
            return (
                int)(std::find_if(items.begin(), items.end(), [&](const Stmt &i) { return i.same_as(t.items[0]); }) -
                     items.begin());
        };
        auto conflict = [](const Uses &a, const Uses &b, std::set<std::string> &shared) {
            bool c = intersects(a.writes, b.reads, &shared);
            c = intersects(a.writes, b.writes, &shared) || c;
            return intersects(a.reads, b.writes, &shared) || c;
        };
        // Later in the block waits for earlier, iteration by iteration; in a
        // loop, the earlier task's next iterations wait for the later one.
        auto order = [&](Task &earlier, Task &later, const std::set<std::string> &shared) {
            add_edge(earlier, later, 0);
            if (loop) {
                // How far ahead the earlier task may run: as far as the
                // storage of every buffer they share allows.
                int ahead = -1;
                for (const std::string &n : shared) {
                    auto r = ring_.find(n);
                    int allowed = r != ring_.end() ? r->second : run_ahead_.count(n) ? 2 : 1;
                    ahead = ahead < 0 ? allowed : std::min(ahead, allowed);
                }
                add_edge(later, earlier, ahead);
            }
        };
        for (size_t i = 1; i < tasks.size(); i++) {
            Task &p = tasks[i];
            int at = first_position(p);
            for (size_t j = i + 1; j < tasks.size(); j++) {
                std::set<std::string> shared;
                if (conflict(p.uses, tasks[j].uses, shared)) {
                    order(p, tasks[j], shared);
                }
            }
            // The main task: its statements before the producer must not
            // feed it; those after it wait for it.
            std::set<std::string> shared;
            user_assert(tasks[0].items.empty() || !conflict(part(tasks[0], at, false), p.uses, shared))
                << "Func " << p.produces << " is scheduled async() but uses what is computed before it at the "
                << "same level by another Func (" << (shared.empty() ? std::string() : *shared.begin())
                << ") that is not async: this async schedule is not supported";
            shared.clear();
            if (!tasks[0].items.empty() && conflict(p.uses, part(tasks[0], at, true), shared)) {
                order(p, tasks[0], shared);
            }
        }
        // Each task: a loop (L's, or one iteration) whose body acquires,
        // runs its statements and releases.
        std::string var = loop ? loop->name : g + ".async_task";
        Expr mn = loop ? loop->min : Expr(0), extent = loop ? loop->extent : Expr(1);
        std::vector<Stmt> fork{
            Evaluate::make(Call::make(Int(32), "async_fork", {Expr((int)tasks.size())}, Call::Intrinsic))};
        for (Task &t : tasks) {
            std::vector<Expr> acquire_args;
            for (const std::string &n : t.acquires) {
                acquire_args.push_back(Variable::make(Handle(), n));
            }
            std::vector<Stmt> body = t.items;
            for (const std::string &n : t.releases) {
                body.push_back(Evaluate::make(Call::make(Int(32), "halide_semaphore_release",
                                                         {Variable::make(Handle(), n), Expr(1)}, Call::Extern)));
            }
            Stmt inside = body.empty() ? Evaluate::make(Expr(0)) : Block::make(body);
            for (auto it = lets.rbegin(); it != lets.rend(); ++it) {
                inside = LetStmt::make((*it)->name, (*it)->value, inside);
            }
            Stmt marker = Evaluate::make(Call::make(Int(32), "task_acquires", acquire_args, Call::Intrinsic));
            fork.push_back(For::make(var, mn, extent, ForType::Serial, Block::make(marker, inside)));
        }
        Stmt s = Block::make(fork);
        for (auto it = semaphores.rbegin(); it != semaphores.rend(); ++it) {
            s = LetStmt::make(it->first, Call::make(Handle(), "make_semaphore", {Expr(it->second)}, Call::Intrinsic),
                              s);
        }
        before.push_back(s);
        return make_block(before);
    }

    const Environment &env_;
    const std::set<std::string> &run_ahead_;
    std::set<std::string> handled_;
    std::set<std::string> enclosing_;   // the Funcs whose Allocates are around the statement being visited
    std::set<std::string> site_allocs_; // those between g's Allocate and its site
    std::vector<Expr> extents_;         // of the Allocate of the async Func being forked
    std::map<std::string, int> ring_;   // ring_buffer(n) Funcs given n copies
    int counter_ = 0;
};

} // namespace

Stmt fork_async_producers(const Stmt &s, const Environment &env, const std::set<std::string> &run_ahead) {
    return ForkAsync(env, run_ahead).mutate(s);
}

} // namespace Internal
} // namespace Halide
