/* plugins/riichi_mcp/target.h — the target mode of paper 000 table 5 over a trained MCP / BCP
 * model, and the model's weights file read back; the core of the future `mcp` / `bcp` plugins.
 *
 * mct_decide: a win is played whenever legal; otherwise every candidate of rop_candidates (the
 * one-player policy's: discards, kans, pass, (call, following discard) pairs) is scored
 * P(>= target | φ(hand after it)) (MCP: the sum of classes >= target; BCP: its model for
 * target) and the best is played; when riichi is legal only the discards that allow it compete
 * and riichi is declared with the best. Ties keep the first candidate (rop_candidates' order). */
#ifndef RIICHI_MCP_TARGET_H
#define RIICHI_MCP_TARGET_H

#include "../riichi_oneplayer/policy.h"
#include "model.h"

/* Loads a weights file of riichi_mcp_train (model "riichi_mcp" for MCM_MCP, "riichi_bcp" for
 * MCM_BCP) into `m` (mcm_free it): the sparse format 2 of dense shape [K, D], or the older
 * [nnz, 2] rows, both through tk_weights_sparse_load (entry k * D + j is row k, feature j).
 * Returns 0, or a TK_E* code naming the file, the field and the value (`m` then freed). */
int mcm_load(const char *path, int kind, mcm_model *m, tk_error *err);

/* The choice in (v, l) for `target` (1..4). Returns 0, or TK_EINVAL (detail in err). */
int mct_decide(const tk_riichi_view *v, const tk_riichi_legal *l, const mcm_model *m, int target,
               rop_choice *out, tk_error *err);

#endif
