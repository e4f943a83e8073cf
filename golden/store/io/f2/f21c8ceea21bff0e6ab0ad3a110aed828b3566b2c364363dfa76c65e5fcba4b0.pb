
jax_argmax_reduce_variadic*"
:"
:"
: