/* plugins/riichi_sampler/rs_cblas.h — which CBLAS this object is compiled against: OpenBLAS's
 * <cblas.h> when RS_OPENBLAS is defined (the trainer, when pkg-config finds openblas), else GSL's
 * reference CBLAS (the sampler inside plugins, always: see rs_nn.h for why). */
#ifndef RIICHI_SAMPLER_RS_CBLAS_H
#define RIICHI_SAMPLER_RS_CBLAS_H
#ifdef RS_OPENBLAS
#include <cblas.h>
#else
#include <gsl/gsl_cblas.h>
#endif
#endif
