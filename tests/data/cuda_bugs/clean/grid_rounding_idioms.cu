// Two launches with grid sizes rounded up in the other common spellings.
__global__ void negate(float* __restrict__ x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = -x[i];
}

void negate_twice(float* x, int n, cudaStream_t stream) {
    const int threads = 256;
    int blocks = n / threads + (n % threads != 0);
    negate<<<blocks, threads, 0, stream>>>(x, n);
    negate<<<(n - 1) / threads + 1, threads, 0, stream>>>(x, n);
}
