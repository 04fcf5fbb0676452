#ifndef CLAWNET_CLDNS_SHIM_H
#define CLAWNET_CLDNS_SHIM_H

// stdbool first: without it every ldns `bool` imports into Swift as Int8.
#include <stdbool.h>
#include <ldns/ldns.h>
#include <openssl/hmac.h>

#endif
