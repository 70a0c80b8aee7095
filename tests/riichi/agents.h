/* tests/riichi/agents.h — the riichi baseline agents linked statically (plugins/CMakeLists.txt,
 * taikai_riichi_agents), and a driver that runs them as rt_play policies. */
#ifndef TAIKAI_TESTS_RIICHI_AGENTS_H
#define TAIKAI_TESTS_RIICHI_AGENTS_H

#include "taikai/agent.h"
#include "taikai/riichi.h"

const tk_agent_descriptor *taikai_agent_entry_riichi_tsumogiri(void);
const tk_agent_descriptor *taikai_agent_entry_riichi_random(void);
const tk_agent_descriptor *taikai_agent_entry_riichi_greedy(void);

#endif
