// Imported first by the package entry, for its effect: decorated classes defined after
// `import "@executa/decorators"` get their design:* metadata recorded.
import { installMetadataPolyfill } from "./metadata-polyfill.js";

installMetadataPolyfill();
