// Inclusive prefix sum of up to 1024 floats in one block (Hillis-Steele, double buffered).
__global__ void scan_block(const float* __restrict__ in, float* __restrict__ out, int n) {
    extern __shared__ float temp[];  // 2 * blockDim.x floats
    int tid = threadIdx.x;
    int pout = 0, pin = 1;
    temp[pout * blockDim.x + tid] = (tid < n) ? in[tid] : 0.0f;
    __syncthreads();
    for (int offset = 1; offset < blockDim.x; offset *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (tid >= offset)
            temp[pout * blockDim.x + tid] = temp[pin * blockDim.x + tid] + temp[pin * blockDim.x + tid - offset];
        else
            temp[pout * blockDim.x + tid] = temp[pin * blockDim.x + tid];
        __syncthreads();
    }
    if (tid < n) out[tid] = temp[pout * blockDim.x + tid];
}

void scan_block_launch(const float* in, float* out, int n) {
    scan_block<<<1, 1024, 2 * 1024 * sizeof(float)>>>(in, out, n);
}
