#ifndef LIVEGATE_CLIBPQ_SHIM_H
#define LIVEGATE_CLIBPQ_SHIM_H

#include <libpq-fe.h>

/* PG_DIAG_* are single-character macros; Swift sees them as Int32 already, these names read better. */
static inline int lg_pq_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }
static inline int lg_pq_diag_message_primary(void) { return PG_DIAG_MESSAGE_PRIMARY; }

#endif
