// Attention scores for one query block: the K tile of 64 rows x 256 dims lives in dynamic shared memory.
#define D 256
#define ROWS 64

__global__ void qk_scores(const float* __restrict__ q, const float* __restrict__ k, float* __restrict__ s,
                          int n_keys) {
    extern __shared__ float k_tile[];
    int key0 = blockIdx.x * ROWS;
    for (int idx = threadIdx.x; idx < ROWS * D; idx += blockDim.x) {
        int key = key0 + idx / D;
        k_tile[idx] = (key < n_keys) ? k[(size_t)key * D + idx % D] : 0.0f;
    }
    __syncthreads();
    if (threadIdx.x < ROWS && key0 + threadIdx.x < n_keys) {
        float acc = 0.0f;
        for (int d = 0; d < D; ++d) acc += q[d] * k_tile[threadIdx.x * D + d];
        s[key0 + threadIdx.x] = acc;
    }
}

void qk_scores_launch(const float* q, const float* k, float* s, int n_keys, cudaStream_t stream) {
    qk_scores<<<(n_keys + ROWS - 1) / ROWS, 256, 65536, stream>>>(q, k, s, n_keys);
}
