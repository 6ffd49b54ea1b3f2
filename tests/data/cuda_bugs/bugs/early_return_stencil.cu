// 1D 7-point stencil with a shared-memory tile and a halo of RADIUS on each side.
#define RADIUS 3
#define BLOCK 256

__global__ void stencil_1d(const float* __restrict__ in, float* __restrict__ out, int n) {
    __shared__ float tile[BLOCK + 2 * RADIUS];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int local = threadIdx.x + RADIUS;
    if (i >= n) return;
    tile[local] = in[i];
    if (threadIdx.x < RADIUS) {
        tile[local - RADIUS] = (i >= RADIUS) ? in[i - RADIUS] : 0.0f;
        tile[local + BLOCK] = (i + BLOCK < n) ? in[i + BLOCK] : 0.0f;
    }
    __syncthreads();
    float acc = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k) acc += tile[local + k];
    out[i] = acc;
}

void stencil_1d_launch(const float* in, float* out, int n) {
    stencil_1d<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
}
