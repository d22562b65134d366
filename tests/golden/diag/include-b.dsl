# included by include.dsl, includes it back
include "include.dsl"
