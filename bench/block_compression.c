// Compressed size of the benchmark log's lines in blocks (issue #27): the lines of each chunk
// of 25,000 grouped by session (as ingest writes them; last argument 1) or in file order (0),
// packed into blocks of BYTES, each compressed with zstd at levels 1, 3, 6, 9 and 19 and with
// zlib at level 6. Prints bytes per line and CPU seconds for each.
//
// Build: gcc -O2 bench/block_compression.c -o block_compression -lzstd -lz
// Usage: block_compression bench-v7.jsonl BYTES GROUPED
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include <zlib.h>
#include <time.h>
typedef struct { char *p; size_t n; char sid[40]; } L;
static int cmp(const void*a,const void*b){const L*x=a,*y=b;int c=strcmp(x->sid,y->sid);return c?c:(x->p<y->p?-1:1);}
int main(int argc,char**argv){
  size_t B=atol(argv[2]); int grouped=atoi(argv[3]);
  FILE*f=fopen(argv[1],"rb"); fseek(f,0,SEEK_END); size_t sz=ftell(f); fseek(f,0,SEEK_SET);
  char*buf=malloc(sz); fread(buf,1,sz,f);
  size_t nl=0,cap=1<<21; L*ls=malloc(cap*sizeof(L));
  for(char*p=buf;p<buf+sz;){char*e=memchr(p,'\n',buf+sz-p); if(!e)e=buf+sz; ls[nl].p=p; ls[nl].n=e-p; char*s=strstr(p,"\"session_id\":\""); memcpy(ls[nl].sid,s+14,36); ls[nl].sid[36]=0; nl++; p=e+1;}
  if(grouped) for(size_t c=0;c<nl;c+=25000){size_t k=nl-c<25000?nl-c:25000; qsort(ls+c,k,sizeof(L),cmp);}
  int zl[]={1,3,6,9,19}; 
  char*blk=malloc(B*2); size_t out[6]={0}; double t[6]={0}; size_t cb=ZSTD_compressBound(B*2); char*o=malloc(cb*2);
  ZSTD_CCtx*cx=ZSTD_createCCtx();
  size_t bn=0; size_t nb=0;
  for(size_t i=0;i<=nl;i++){
    if(i==nl||bn+ls[i].n+1>B){ if(bn){ nb++;
      for(int z=0;z<5;z++){clock_t a=clock(); out[z]+=ZSTD_compressCCtx(cx,o,cb,blk,bn,zl[z]); t[z]+=(double)(clock()-a)/CLOCKS_PER_SEC;}
      clock_t a=clock(); uLongf d=cb; compress2((Bytef*)o,&d,(Bytef*)blk,bn,6); out[5]+=d; t[5]+=(double)(clock()-a)/CLOCKS_PER_SEC; }
      bn=0; if(i==nl)break; }
    memcpy(blk+bn,ls[i].p,ls[i].n); bn+=ls[i].n; blk[bn++]='\n';
  }
  printf("B=%zu grouped=%d blocks=%zu raw=%zu\n",B,grouped,nb,sz);
  for(int z=0;z<5;z++) printf(" zstd-%d: %.1f B/event  %.2f s\n",zl[z],(double)out[z]/nl,t[z]);
  printf(" zlib-6: %.1f B/event  %.2f s\n",(double)out[5]/nl,t[5]);
}
