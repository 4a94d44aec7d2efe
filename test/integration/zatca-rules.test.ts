// The e-invoice checker runs in the Worker that issues the documents: the same cases as
// test/unit/zatca-rules.test.ts (which the `node` project runs), here in the Workers runtime.
import "../unit/zatca-rules.test.ts";
