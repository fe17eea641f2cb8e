import { soakHalf } from './soak';

soakHalf(1);
