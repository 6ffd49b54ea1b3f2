// Row-wise top-1 over 10240 scores per row: the scores in dynamic shared memory, a 16 KB scratch table.
__global__ void row_argmax(const float* __restrict__ scores, int* __restrict__ best, int cols) {
    __shared__ float scratch[4096];
    extern __shared__ float row[];
    for (int j = threadIdx.x; j < cols; j += blockDim.x) row[j] = scores[(size_t)blockIdx.x * cols + j];
    __syncthreads();
    float v = -INFINITY;
    int arg = 0;
    for (int j = threadIdx.x; j < cols; j += blockDim.x) {
        if (row[j] > v) { v = row[j]; arg = j; }
    }
    scratch[threadIdx.x] = v;
    scratch[2048 + threadIdx.x] = __int_as_float(arg);
    __syncthreads();
    if (threadIdx.x == 0) {
        int best_j = 0;
        float best_v = -INFINITY;
        for (int t = 0; t < blockDim.x; ++t) {
            if (scratch[t] > best_v) { best_v = scratch[t]; best_j = __float_as_int(scratch[2048 + t]); }
        }
        best[blockIdx.x] = best_j;
    }
}

void row_argmax_launch(const float* scores, int* best, int rows) {
    row_argmax<<<rows, 1024, 40960>>>(scores, best, 10240);
}
