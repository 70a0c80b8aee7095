// akochan_mjai.cpp — our driver that lets akochan (github.com/critter-mj/akochan, its AI library
// ai_src/ and share/, linked in by build-akochan.sh) play through taikai's riichi_mjai bridge.
//
//   usage: akochan_mjai AKOCHAN_DIR [TACTICS_JSON]
//
// AKOCHAN_DIR: akochan's source folder; the bot reads its parameter tables from params/ there at
// run time, so the driver changes into it. TACTICS_JSON: akochan's tactics file (default
// AKOCHAN_DIR/setup_mjai.json, the one akochan's own mjai client uses), given to akochan's
// set_tactics_one.
//
// Protocol (docs/riichi.md, "External mjai bots"): each input line is a JSON array of mjai events
// since the bot's previous decision; each is answered with one line holding one mjai action. The
// driver keeps the hand's events as akochan's own "pipe" mode does (start_game, then everything
// since the last start_kyoku) and asks akochan's ai() at the points ai() accepts: its own tsumo,
// another seat's dahai or kakan. ai() answers a list of moves: the first is sent; a second (the
// discard after a reach, a pon or a chi) is kept and sent when the bridge reports that reach,
// pon or chi back. Any other decision point is answered with "none".
//
// Threads: the driver runs NPROCS OpenMP threads (defined by build-akochan.sh), one per akochan
// work buffer: akochan indexes its fixed-capacity buffers by thread number, so fewer threads
// than buffers would leave buffers unused and overflow the others in large positions.
// Determinism: ai() draws no random numbers and reads no clock for its decisions, and which
// thread computes what is fixed by NPROCS, so the answer depends only on the game's events.
//
// akochan's code writes diagnostics to stdout in places; the driver moves its own stdout aside
// at start and points descriptor 1 at stderr, so only answers reach the bridge.
#include <omp.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <string>

#include "ai_src/selector.hpp"
#include "share/include.hpp"

namespace {

FILE *answers;  // the original stdout, where the answers go

void answer(const json11::Json &move) {
  std::string s = move.dump();
  fprintf(answers, "%s\n", s.c_str());
  fflush(answers);
}

// Did the last event make the decision that `pending`'s first move announced (its reach, pon or
// chi), so that its second move, the discard, is due now?
bool pending_due(const Moves &pending, const json11::Json &last, int id) {
  if (pending.size() < 2) return false;
  const std::string type = last["type"].string_value();
  return last["actor"].int_value() == id && pending[0]["type"].string_value() == type &&
         (type == "reach" || type == "pon" || type == "chi");
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: akochan_mjai AKOCHAN_DIR [TACTICS_JSON]\n");
    return 2;
  }
  const std::string tactics_path = argc == 3 ? argv[2] : "setup_mjai.json";
  if (chdir(argv[1]) != 0) {
    perror(argv[1]);
    return 2;
  }
  if (access(tactics_path.c_str(), R_OK) != 0 || access("params", R_OK) != 0) {
    fprintf(stderr, "akochan_mjai: %s: no readable %s or params/ (is it akochan's folder?)\n",
            argv[1], tactics_path.c_str());
    return 2;
  }
  int out = dup(1);
  if (out < 0 || dup2(2, 1) < 0 || !(answers = fdopen(out, "w"))) {
    perror("akochan_mjai: stdout");
    return 2;
  }
  omp_set_dynamic(0);
  omp_set_num_threads(NPROCS);
  set_tactics_one(load_json_from_file(tactics_path));

  Moves record, pending;
  int id = -1;
  std::string line;
  while (std::getline(std::cin, line)) {
    std::string err;
    const json11::Json events = json11::Json::parse(line, err);
    if (!events.is_array() || events.array_items().empty()) {
      fprintf(stderr, "akochan_mjai: not a JSON array of events: %s\n", line.c_str());
      return 1;
    }
    for (const json11::Json &ev : events.array_items()) {
      const std::string type = ev["type"].string_value();
      if (type == "start_game") {
        record.clear();
        pending.clear();
        id = ev["id"].int_value();
      } else if (type == "start_kyoku" && !record.empty()) {
        record.resize(1);  // start_game only, as akochan's pipe mode keeps it
      }
      record.push_back(ev);
    }
    const json11::Json &last = record.back();
    const std::string type = last["type"].string_value();
    const int actor = last["actor"].is_number() ? last["actor"].int_value() : -1;
    if (pending_due(pending, last, id)) {
      answer(pending[1]);
      pending.clear();
    } else if (id >= 0 && ((type == "tsumo" && actor == id) ||
                           ((type == "dahai" || type == "kakan") && actor != id && actor >= 0))) {
      pending = ai(record, id, false);
      answer(pending.empty() ? json11::Json(json11::Json::object{{"type", "none"}}) : pending[0]);
    } else {
      pending.clear();
      answer(json11::Json::object{{"type", "none"}});
    }
  }
  return 0;
}
