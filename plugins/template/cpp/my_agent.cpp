// my_agent.cpp — a one-player mahjong agent (game "solo", taikai/solo.h) in C++: the plugin
// ABI is C, so the agent is a class behind the C descriptor. Every public header is usable from
// C++ (extern "C", no C-only constructs); TK_AGENT_ENTRY gives the entry point C linkage.
//
// The agent keeps the kinds that form groups: it discards the held kind with the fewest
// neighbours (same kind, and for suits +-1 and +-2 in the suit), ties broken at random with
// the game's seed. No exception may cross the ABI: every entry point catches.
#include <array>
#include <cstdint>
#include <cstdio>
#include <new>
#include <string>

#include "taikai/agent.h"
#include "taikai/rng.h"
#include "taikai/solo.h"

namespace {

class Agent {
 public:
  explicit Agent(std::uint64_t seed) { tk_rng_seed(&rng_, seed); }
  void begin(const tk_solo_info &info) { tk_rng_seed(&rng_, info.head.seed); }

  int act(const tk_solo_view &v, const tk_solo_legal &l, tk_solo_action &out) {
    if (l.n == 0) return TK_ESTATE;
    std::array<int, 14> score{};
    int best = 1 << 30, nbest = 0;
    for (int i = 0; i < l.n; i++) {
      score[i] = neighbours(v, l.kinds[i]);
      if (score[i] < best) best = score[i], nbest = 0;
      if (score[i] == best) nbest++;
    }
    int pick = static_cast<int>(tk_rng_below(&rng_, static_cast<std::uint32_t>(nbest)));
    for (int i = 0; i < l.n; i++) {
      if (score[i] == best && pick-- == 0) {
        out.discard = l.kinds[i];
        return 0;
      }
    }
    return TK_ESTATE;
  }

 private:
  static int neighbours(const tk_solo_view &v, int k) {
    int n = 2 * (v.hand[k] - 1); // another copy: a pair or more
    if (k < 27) {
      int suit = k / 9 * 9;
      for (int d = -2; d <= 2; d++) {
        int j = k + d;
        if (d != 0 && j >= suit && j < suit + 9 && v.hand[j]) n += d == -1 || d == 1 ? 2 : 1;
      }
    }
    return n;
  }
  tk_rng rng_;
};

tk_agent_instance *create(const char *, std::uint64_t seed, tk_error *err) {
  Agent *a = new (std::nothrow) Agent(seed);
  if (!a) tk_error_set(err, TK_ENOMEM, -1, "my_cpp: out of memory");
  return a;
}
void destroy(tk_agent_instance *self) { delete static_cast<Agent *>(self); }
int begin_game(tk_agent_instance *self, const void *info) {
  static_cast<Agent *>(self)->begin(*static_cast<const tk_solo_info *>(info));
  return 0;
}
int act(tk_agent_instance *self, const void *view, const void *legal, void *action) {
  try {
    return static_cast<Agent *>(self)->act(*static_cast<const tk_solo_view *>(view),
                                           *static_cast<const tk_solo_legal *>(legal),
                                           *static_cast<tk_solo_action *>(action));
  } catch (...) {
    return TK_EFAULT;
  }
}
void end_game(tk_agent_instance *, const void *) {}

tk_agent_descriptor make_descriptor() {
  tk_agent_descriptor d{};
  d.abi_version = TK_AGENT_ABI_VERSION;
  d.struct_size = sizeof(tk_agent_descriptor);
  d.name = "my_cpp";
  d.version = "0.1.0";
  d.game = "solo";
  d.types_version = TK_SOLO_TYPES_VERSION;
  d.description = "C++ template: discards the kind with the fewest neighbours";
  d.params_json = "{}";
  d.create = create;
  d.destroy = destroy;
  d.begin_game = begin_game;
  d.act = act;
  d.end_game = end_game;
  return d;
}
const tk_agent_descriptor descriptor = make_descriptor();

} // namespace

TK_AGENT_ENTRY(my_cpp) { return &descriptor; }
