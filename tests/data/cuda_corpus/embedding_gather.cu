// Embedding lookup: one block per token, threads copy the row; out-of-range ids give zeros.
#include <cstdint>
#include <cuda_runtime.h>

__global__ void embedding_gather(const int64_t* __restrict__ ids, const float* __restrict__ table,
                                 float* __restrict__ out, int64_t vocab, int64_t dim) {
  const int64_t token = blockIdx.x;
  const int64_t id = ids[token];
  const bool valid = id >= 0 && id < vocab;
  for (int64_t j = threadIdx.x; j < dim; j += blockDim.x) {
    out[token * dim + j] = valid ? table[id * dim + j] : 0.0f;
  }
}

cudaError_t launch_embedding(const int64_t* ids, const float* table, float* out, int64_t tokens, int64_t vocab,
                             int64_t dim, cudaStream_t stream) {
  embedding_gather<<<(unsigned)tokens, 128, 0, stream>>>(ids, table, out, vocab, dim);
  return cudaGetLastError();
}
