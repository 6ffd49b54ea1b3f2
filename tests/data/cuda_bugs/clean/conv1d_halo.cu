// out[i] = sum_k w[k] * in[i + k - K/2] with zero padding; K <= 33 taps in constant memory.
#define BLOCK 256
#define MAX_TAPS 33
__constant__ float taps[MAX_TAPS];

__global__ void conv1d(const float* __restrict__ in, float* __restrict__ out, int n, int K) {
    __shared__ float tile[BLOCK + MAX_TAPS - 1];
    int half = K / 2;
    int start = blockIdx.x * BLOCK - half;
    for (int j = threadIdx.x; j < BLOCK + K - 1; j += blockDim.x) {
        int src = start + j;
        tile[j] = (src >= 0 && src < n) ? in[src] : 0.0f;
    }
    __syncthreads();
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i < n) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k) acc += taps[k] * tile[threadIdx.x + k];
        out[i] = acc;
    }
}

void conv1d_launch(const float* in, float* out, int n, int K) {
    conv1d<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n, K);
}
