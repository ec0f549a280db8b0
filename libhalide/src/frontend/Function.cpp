// Upstream's Internal::Function queries, answered from the Func's contents.
#include "Halide/Function.h"

#include "lower/Function.h"

namespace Halide {
namespace Internal {

const std::string &Function::name() const {
    return contents_->name;
}

const std::vector<std::string> &Function::args() const {
    return contents_->args;
}

const std::vector<Expr> &Function::values() const {
    return contents_->values;
}

int Function::dimensions() const {
    return (int)contents_->args.size();
}

int Function::outputs() const {
    return (int)output_types().size();
}

std::vector<Type> Function::output_types() const {
    if (!contents_->values.empty()) {
        std::vector<Type> types;
        for (const Expr &v : contents_->values) {
            types.push_back(v.type());
        }
        return types;
    }
    return contents_->required_types;
}

const std::vector<Type> &Function::required_types() const {
    return contents_->required_types;
}

int Function::required_dimensions() const {
    return contents_->required_dimensions;
}

bool Function::has_pure_definition() const {
    return contents_->defined();
}

bool Function::has_update_definition() const {
    return !contents_->updates.empty();
}

bool Function::has_extern_definition() const {
    return contents_->extern_def != nullptr;
}

bool Function::frozen() const {
    return contents_->frozen;
}

} // namespace Internal
} // namespace Halide
