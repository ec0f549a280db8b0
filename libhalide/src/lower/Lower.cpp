// The lowering pipeline, in order. Each step is one pass in its own file.
#include "lower/Lower.h"

#include "Halide/IR.h"
#include "Halide/IRMutator.h"
#include "Halide/Simplify.h"
#include "lower/DropSpentLikelies.h"
#include "lower/Passes.h"
#include "lower/Prefetch.h"
#include "lower/ShareShiftedGathers.h"
#include "simplify/StrictFloatScope.h"

namespace Halide {
namespace Internal {

Expr int32_const(int64_t v) {
    return IntImm::make(Int(32), v);
}
Expr var_int32(const std::string &name) {
    return Variable::make(Int(32), name);
}
OpeningLets opening_lets(const Stmt &s, const std::function<bool(const Expr &)> &stop) {
    OpeningLets o;
    o.inside = s;
    while (const LetStmt *let = o.inside.as<LetStmt>()) {
        if (stop && stop(let->value)) {
            break;
        }
        o.lets.push_back(let);
        o.symbolic[let->name] = Interval::single_point(Variable::make(let->value.type(), let->name));
        o.inside = let->body;
    }
    return o;
}

Stmt wrap_in_lets(const OpeningLets &o, Stmt s, const std::function<Expr(const Expr &)> &value) {
    for (auto let = o.lets.rbegin(); let != o.lets.rend(); ++let) {
        s = LetStmt::make((*let)->name, value ? value((*let)->value) : (*let)->value, s);
    }
    return s;
}

Expr buffer_field(const std::string &buffer, const char *field, int d) {
    return var_int32(buffer + "." + field + "." + std::to_string(d));
}
std::string loop_var_name(const std::string &func, const std::string &var, int stage) {
    return func + ".s" + std::to_string(stage) + "." + var;
}

namespace {

// Each loop's Func::partition() policy, by loop name.
std::map<std::string, Partition> partition_policies(const Environment &env) {
    std::map<std::string, Partition> policies;
    for (const auto &[name, f] : env) {
        for (int k = 0; k <= (int)f->updates.size(); k++) {
            for_each_stage_dim(
                *f, k, [&, name = name](const LoopDim &d) { policies[loop_var_name(name, d.var, k)] = d.partition; });
        }
    }
    return policies;
}

} // namespace

LoweredPipeline lower(const std::vector<FunctionPtr> &given_outputs, const std::string &name,
                      const LowerOptions &options) {
    LoweredPipeline result;
    result.func.name = name;
    // A strict_float target: the simplifier keeps float operations as written.
    StrictFloatScope strict_float(options.target.has_feature(Target::StrictFloat));

    // 1. Which Funcs take part, producers before consumers (an output whose
    // calls go to wrappers is a copy: the passes below use that one).
    Environment env;
    std::vector<std::string> order = realization_order(given_outputs, env);
    for (const auto &[name, f] : env) {
        resolve_loop_levels(*f); // LoopLevels given to schedules are read (and locked) now
    }
    std::vector<FunctionPtr> outputs;
    for (const FunctionPtr &f : given_outputs) {
        outputs.push_back(env.at(f->name));
    }

    // 1a. Updates may not race under their schedules; once compiled, a
    // Func takes no more updates (as upstream: they would change its meaning).
    for (const auto &[name, f] : env) {
        check_update_races(*f);
        check_specialized_update_races(*f);
        check_device_schedules(env, options.target);
        check_memoization(*f, outputs);
        f->frozen = true;
    }

    check_schedule_directives(env);

    // 1b. compute_with: legal fusions only; fused Funcs next to each other.
    order = check_compute_with(env, order, outputs);

    // 2. Inline everything scheduled inline (the default).
    inline_functions(env, order, outputs);
    // 2a. Reads f(g(x)) are bounded by the values g can produce (upstream's rule).
    FuncValueBoundsScope value_bounds(func_value_bounds(env, order));
    lower_target_queries(env, options.target); // target_arch_is() etc.: constants for the target
    choose_extern_symbols(env, options.target);

    // 3. Loop nests and realizations, with bounds inference.
    Stmt s = schedule_functions(env, order, outputs);
    // 3'. compute_with: the fused stages' loop nests made one (the marks
    // schedule_functions left on their stages taken off).
    s = fuse_compute_with(s, env);

    // 3a. The updates marked atomic() update their points atomically.
    s = add_atomics(s, env);
    s = lower_scatter_gather(s); // scatter()/gather(): one store per value
    s = remove_undef(s);         // select(c, v, undef()): stored only where c holds

    // 3b. trace_loads/trace_stores/trace_realizations (or the target's
    // trace_* features) report their events to halide_trace.
    TraceOptions trace;
    trace.loads = options.target.has_feature(Target::TraceLoads);
    trace.stores = options.target.has_feature(Target::TraceStores);
    trace.realizations = options.target.has_feature(Target::TraceRealizations);
    trace.pipeline = options.target.has_feature(Target::TracePipeline) || options.trace_pipeline;
    s = add_tracing(s, env, order, outputs, name, trace);

    // 3c. Pipeline::add_requirement(): checked before anything is computed.
    s = add_requirements(s, options.requirements);
    s = lower_target_queries(s, options.target); // the rest of them (conditions, bounds)
    s = extern_input_queries(s, env);            // what extern stages read of input buffers, asked first

    // 4. The arguments of the entry point, in ABI order.
    infer_arguments(s, outputs, result);
    s = use_given_argument_names(s, result);

    // 5. Bind buffer fields; check types, dimensions, input regions, params.
    s = add_image_checks(s, result, outputs, !options.no_bounds_query);

    // 5a. Targets with debug say when the pipeline starts and ends.
    if (options.debug) {
        auto say = [&](const char *what) {
            return Evaluate::make(
                Call::make(Int(32), "print", {StringImm::make(what), StringImm::make(name)}, Call::Intrinsic));
        };
        s = Block::make({say("Entering Pipeline"), s, say("Exiting Pipeline")});
    }

    // 5b. Targets with no_asserts trust their callers.
    if (options.no_asserts) {
        s = strip_asserts(s);
    }

    // 6. Bounds are all known now: drop the promises that informed them.
    s = strip_promises(s);

    // 6a. Line buffers: Funcs stored outside a loop compute only new rows,
    // in storage folded to the rows still live.
    std::set<std::string> async_run_ahead;
    s = storage_folding(sliding_window(s, env), env, &async_run_ahead);

    // 6b. Extern stages showed bounds inference what they read and write; done now.
    s = strip_extern_markers(s);

    // 7. Multi-dimensional storage to flat buffers (after Func::prefetch's
    // prefetches of the regions later iterations read).
    s = storage_flattening(inject_prefetches(s, env), env);
    s = inject_debug_to_file(s, env, outputs); // debug_to_file(): values written once computed
    s = inject_memoization(s, env, result);    // memoize(): storage from the cache, computed on a miss
    s = skip_stages(s, env);                   // producers read only under a condition: computed only then
    s = hoist_storage(s, env);                 // hoist_storage(): allocated once, outside its loops

    // 8. Fold constants and clean up the index math: constants first, then
    // each index as a sum of distinct terms (so (x + m) - m is x).
    s = simplify(s);
    s = canonicalize_indices(s);
    if (options.loop_nest) {
        *options.loop_nest = loop_nest_text(s, env);
    }

    // 9. Unroll the loops scheduled with unroll() (their extents are constants now).
    s = unroll_loops(s);
    s = simplify(s);
    s = check_memory_types(s); // store_in() kinds a CPU target can't give

    // 9a. Loops with likely branches (clamps and selects at edges) split into
    // prologue, steady state without them, and epilogue.
    s = simplify(partition_loops(s, partition_policies(env)));
    // 9b. The marks partitioning had no loop to use on: gone, so what they
    // wrapped cancels (an unrolled tile's indices become constants).
    s = canonicalize_indices(simplify(drop_spent_likelies(s)));

    // 10. Vectorized loops to vector code. Last: the simplifier works on scalars.
    s = vectorize_loops(s);
    s = deinterleave_stores(s);   // select(x % 2 == 0, a(x / 2), ...): interleaved slices, strided loads
    s = share_repeated_loads(s);  // an inlined value read several times by one store: loaded once
    s = share_strided_loads(s);   // f(2x), f(2x + 1) in one store: slices of one dense load
    s = share_shifted_gathers(s); // in[g(x - 2)] ... in[g(x + 2)] in one store: slices of one gather

    // What sibling loops compute alike (a partitioned row's offsets): once, before them.
    s = share_loop_invariants(s);

    // 10a. async() producers as tasks next to their consumers, with semaphores.
    s = fork_async_producers(s, env, async_run_ahead);

    // 10b. Upstream's produce/consume marks, for the passes below and Module::functions().
    s = mark_producers_consumers(s, env);

    // 10c. profile: which Func runs, sampled by the runtime's profiler.
    if (options.target.has_feature(Target::Profile) || options.target.has_feature(Target::ProfileByTimer)) {
        std::set<std::string> unlisted;
        for (const auto &[fname, f] : env) {
            if (f->no_profiling) {
                unlisted.insert(fname);
            }
        }
        s = inject_profiling(s, name, unlisted);
    }

    // 11. The user's passes (Pipeline::add_custom_lowering_pass), in order.
    for (IRMutator *pass : options.custom_passes) {
        s = pass->mutate(s);
    }

    result.func.body = s;
    return result;
}

} // namespace Internal
} // namespace Halide
