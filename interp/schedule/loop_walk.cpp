#include "loop_walk.hpp"

namespace nisa::loop_walk_detail {

void fault(const LoopParams& p, const std::string& message) {
  throw RuntimeFault(p.site.program->file + ":" + std::to_string(p.site.line) + ": error: " + p.site.instruction + ": " + message);
}

}  // namespace nisa::loop_walk_detail
