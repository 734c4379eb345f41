/**
 * The ALTCHA widget (docs/abuse.md), in a bundle of its own that the pages load only when the
 * server asks for a CAPTCHA. The `external` build keeps styles and the worker out of inline
 * code, so the pages' CSP stays as strict as it is.
 */
import 'altcha/external';
import 'altcha/altcha.css';
