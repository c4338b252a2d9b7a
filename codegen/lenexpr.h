// Length expressions (`len` annotations) turned into checked C++.
#pragma once
#include <string>

#include "model.h"

namespace mglgen {

// C++ code computing the element count of `p` from the verb's scalar
// arguments (named with `prefix` + param name) through a mgl::wire::LenCalc
// named `calc`. Returns false when the expression cannot be checked by the
// decoder (COMPSIZE, references to arrays, empty): the backend receives the
// byte size and validates such arrays against its own state.
bool len_expr_code(const Verb& v, const Param& p, const std::string& prefix, std::string& code);

// The integer value of the expression when every identifier in it is
// replaced by `value` (used to size arrays in the round-trip tests).
bool len_expr_eval(const Verb& v, const std::string& len, long value, long& result);

}  // namespace mglgen
