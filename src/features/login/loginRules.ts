// The login form's rules, a chunk of their own: yup is not needed to show the form, only to check it.
export { loginSchema } from '../../validation/schemas';
export { validateSchema } from '../../validation/validate';
