// Doubles every element; written for "big blocks".
__global__ void __launch_bounds__(2048) double_all(float* __restrict__ x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}
